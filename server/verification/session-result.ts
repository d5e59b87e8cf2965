import type { z } from 'zod';
import type { IssuerTrust, PresentedCredential } from '../../contract/verification/authorization-request.js';
import type { CredentialTrust } from './issuer-trust.js';
import type { PresentationSession, SessionStatus } from './presentation-session.entity.js';
import type { SessionEvent } from './session-events.js';

/** How the session result names a trust path: the contract's IssuerTrust. */
export type TrustView = z.infer<typeof IssuerTrust>;

export const trustView = (t: CredentialTrust): TrustView => ({
  method: t.method,
  ...(t.anchor ? { anchor: t.anchor } : {}),
  ...(t.anchorSubject ? { anchor_subject: t.anchorSubject } : {}),
  ...(t.source ? { source: t.source, entity: t.entity, service_type: t.serviceType } : {}),
});

/** One verified credential of a presentation (the contract's PresentedCredential). */
export type PresentedCredentialView = z.infer<typeof PresentedCredential>;

/** What a verified session keeps in `result` (personal data: `claims`). */
export interface SessionResult {
  claims?: Record<string, unknown>;
  credential_type?: string | null;
  /** The first credential's trust path (kept as before `credentials` existed). */
  trust?: TrustView;
  credentials?: PresentedCredentialView[];
  /** An approval's signed receipt. */
  receipt?: string;
  /**
   * The first credential's issuer-signed `status` claim (`{status_list: {idx, uri}}`), which `claims`
   * leaves out: an OpenID Connect client's claims_mapping may read it (`["status", "status_list"]`),
   * e.g. to tell which credential signed in.
   */
  status?: { status_list: { idx: number; uri: string } };
}

/** What a relying party's claims_mapping reads from: the disclosed claims and the `status` claim. */
export const mappableClaims = (result: SessionResult | null): Record<string, unknown> => ({
  ...(result?.claims ?? {}),
  ...(result?.status ? { status: result.status } : {}),
});

export const resultOf = (s: Pick<PresentationSession, 'result'>) => s.result as SessionResult | null;

/** What the audit trail and the presentation.verified webhook say of a verified result (no claims). */
export const verifiedDetails = (s: Pick<PresentationSession, 'result' | 'profile'>) => {
  const result = resultOf(s);
  return {
    credential_type: result?.credential_type ?? null,
    ...(result?.trust ? { trust: result.trust } : {}),
    ...(s.profile ? { profile: s.profile } : {}),
  };
};

/**
 * The status event of a session, for its watchers (SSE): the status, the profile it runs under, and
 * once verified the trust path of each credential. Never claims: the stream is reachable with the
 * session id alone.
 */
export function sessionEvent(
  s: Pick<PresentationSession, 'id' | 'profile' | 'result'>,
  status: SessionStatus,
): SessionEvent {
  const credentials = status === 'verified' ? resultOf(s)?.credentials : undefined;
  return {
    session_id: s.id,
    status,
    ...(s.profile ? { profile: s.profile } : {}),
    ...(credentials ? { credentials: credentials.map(({ id, trust }) => ({ id, trust })) } : {}),
  };
}
