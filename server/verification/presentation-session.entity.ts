import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { SessionApproval } from '../approvals/session-approval.js';

/**
 * `awaiting_redirect`: a same-device answer was verified, and its result waits for the response code
 * of the redirect to be redeemed in the session that asked (HAIP 1.0 redirects); see statusOf.
 */
export const SESSION_STATUSES = ['pending', 'awaiting_redirect', 'verified', 'failed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number] | 'expired';

/** Why a same-device answer was rejected: its response code was not redeemed by the deadline. */
export const REDIRECT_NOT_FOLLOWED = 'redirect_not_followed';

/**
 * One presentation request of a tenant and what became of it. The disclosed claims (`result`) are
 * personal data; they live as long as the session row.
 */
export const PresentationSession = defineEntity({
  name: 'PresentationSession',
  tableName: 'presentation_session',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    status: p.enum(SESSION_STATUSES),
    credentialConfigurationId: p.string().nullable(),
    dcqlQuery: p.json<Record<string, unknown>>(),
    responseMode: p.enum(['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'] as const),
    nonce: p.string(),
    state: p.string(),
    redirectUri: p.string().nullable(),
    /** How the request identified the verifier (OID4VP 5.9.3); the KB-JWT `aud` must be that client_id. */
    clientIdPrefix: p.enum(['x509_hash', 'x509_san_dns'] as const),
    /** The verifier profile the session was created under (HAIP 1.0); null: none. */
    profile: p.enum(['haip-1.0'] as const).nullable(),
    /**
     * dc_api sessions: the origins whose pages may call the Digital Credentials API for it (OID4VP 1.0
     * Appendix A.2); an answer posted from elsewhere, or bound to another origin, is refused.
     */
    expectedOrigins: p.json<string[]>().nullable(),
    encKid: p.string().nullable(),
    /** The session's ECDH-ES private key, sealed like signing keys. */
    encKeySealed: p.text().nullable(),
    encPublicJwk: p.json<Record<string, string>>().nullable(),
    /**
     * The base64url EncryptionInfo of the session's ISO/IEC 18013-7 Annex C request (`org-iso-mdoc`),
     * as sent: the answer's transcript hashes this very text. Null: the session offered no Annex C.
     */
    annexCEncryptionInfo: p.text().nullable().fieldName('annex_c_encryption_info'),
    /** The private key of that EncryptionInfo (P-256 JWK), sealed like signing keys, bound to the session id. */
    annexCKeySealed: p.text().nullable().fieldName('annex_c_key_sealed'),
    /**
     * OpenID4VP 1.0 `transaction_data` of the request, as sent (base64url JSON objects): the holder's
     * key binding must carry their hashes. Null: the session asks for no transaction.
     */
    transactionData: p.json<string[]>().nullable(),
    /** An approval's id, transaction and required power (server/approvals); null for other sessions. */
    approvalId: p.string().nullable(),
    approval: p.json<SessionApproval>().nullable(),
    result: p.json<Record<string, unknown>>().nullable(),
    failureReason: p.string().nullable(),
    /** What failed, in words, beside the machine-readable reason (the same the wallet was told). */
    failureDescription: p.text().nullable(),
    responseCodeHash: p.string().nullable(),
    /** Awaiting the redirect: the deadline of its response code, after which the session has failed. */
    responseCodeExpiresAt: p.datetime().nullable(),
    /**
     * SHA-256 of the secret the integrator got with a same-device session (one with a redirect_uri):
     * its response code is redeemed only together with that secret (HAIP 1.0, redirects).
     */
    sessionBindingHash: p.string().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    completedAt: p.datetime().nullable(),
  },
});

export type PresentationSession = InferEntity<typeof PresentationSession>;

/** Whether the wallet encrypts its answer to the session's own key (`direct_post.jwt`, `dc_api.jwt`). */
export const isEncrypted = (s: Pick<PresentationSession, 'responseMode'>) => s.responseMode.endsWith('.jwt');

/** Whether a session awaiting its redirect is past the deadline (before the sweep has recorded it). */
const redirectMissed = (s: PresentationSession) =>
  s.status === 'awaiting_redirect' &&
  (!s.responseCodeExpiresAt || new Date(s.responseCodeExpiresAt) <= new Date());

/**
 * The status as of now: a pending session past its expiry is expired, and one awaiting its redirect
 * past the deadline has failed (redirect_not_followed) even before the sweep writes it down.
 */
export const statusOf = (s: PresentationSession): SessionStatus => {
  if (s.status === 'pending' && s.expiresAt <= new Date()) return 'expired';
  return redirectMissed(s) ? 'failed' : s.status;
};

/** The failure reason as of now (see statusOf); null unless failed. */
export const failureReasonOf = (s: PresentationSession): string | null =>
  redirectMissed(s) ? REDIRECT_NOT_FOLLOWED : (s.failureReason ?? null);
