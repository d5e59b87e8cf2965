import type { JWK } from 'jose';
import { type Trust, trustOf } from '../../trust/trust.js';

export type { CredentialTrust, TrustedIssuerKeys, TrustMethod } from '../../verification/issuer-trust.js';

import type { CredentialTrust, TrustedIssuerKeys } from '../../verification/issuer-trust.js';

/** What the verifier knows about the transaction, and how it reaches the outside world. */
export interface VerificationContext {
  /** The `nonce` of the Authorization Request (the session's). */
  nonce: string;
  /** The full Client Identifier, with its prefix, e.g. `x509_san_dns:verifier.example`: the expected `aud`. */
  clientId: string;
  /** The verification time; now when absent. */
  now?: Date;
  /** How old a KB-JWT or VP JWT (`iat`) may be, in seconds. Default 300. */
  maxKbAgeSeconds?: number;
  /** Tolerated clock difference for every time comparison, in seconds. Default 60. */
  clockSkewSeconds?: number;
  /**
   * The keys of a trusted issuer, `undefined` (or an empty list) when the issuer is not trusted. They
   * verify the credential's signature and its Status List Token (this service publishes its
   * status-list keys next to its issuer keys in `/.well-known/jwt-vc-issuer`). A throw is treated as
   * not trusted. It is called with the credential's `iss` before its signature is checked, so it must
   * not fetch anything for an issuer it does not already trust (SSRF). `trustedIssuersFromMetadata`
   * builds one from an allow-list.
   */
  trustedIssuers: (iss: string) => Promise<JWK[] | TrustedIssuerKeys | undefined>;
  /**
   * X.509 trust anchors (standard base64 DER): a credential or Status List Token with an `x5c` chain
   * leading to one of them is trusted by that chain (its leaf naming `iss`), besides `trustedIssuers`.
   * None: `x5c` chains are not evaluated.
   */
  trustAnchors?: readonly string[];
  /**
   * The tenant's whole trust (anchors and the certificates its trust sources list), as
   * server/trust builds it; when given, `trustAnchors` is not read.
   */
  trust?: Trust;
  /**
   * The compact `statuslist+jwt` at `uri` (`status.status_list.uri` of the credential). A throw means
   * `status_unavailable`. Called only for credentials of a trusted issuer whose signature verified;
   * still, refuse non-HTTPS and internal addresses and bound the response size. `cachedStatusListFetcher`
   * wraps one with a cache honouring the token's `ttl`.
   */
  fetchStatusList: (uri: string) => Promise<string>;
  /**
   * How the response reached the verifier, for formats whose holder signs over a session transcript
   * (an mdoc's DeviceAuthentication, OID4VP 1.0 B.2.6): the `response_uri` of a redirect-based
   * request, or the web `origin` of a Digital Credentials API request, and the verifier's response
   * encryption key when the response was encrypted.
   */
  transaction?: PresentationTransaction;
  /**
   * The Status List Token at `uri` in CWT form (`application/statuslist+cwt`), base64url, for
   * formats that reference their status in CBOR (an mdoc). Same rules as `fetchStatusList`.
   */
  fetchStatusListCwt?: (uri: string) => Promise<string>;
  /**
   * The verifier profile of the session. `haip-1.0`: dc+sd-jwt only, ES256 only, a KB-JWT always,
   * issuer and Status List Token trusted only by their `x5c` chain to `trustAnchors`.
   */
  profile?: 'haip-1.0' | undefined;
  /**
   * OpenID4VP 1.0 `transaction_data` of the request, as sent: each entry names the credential queries
   * that may authorize it, and the presentation answering one must carry its hash under the holder's
   * signature (`transaction_data_missing`, `transaction_data_mismatch` otherwise).
   */
  transactionData?: readonly string[];
}

export interface PresentationTransaction {
  responseUri?: string;
  origin?: string;
  responseEncryptionKey?: JWK;
  /**
   * The answer came by ISO/IEC 18013-7 Annex C (`org-iso-mdoc` over the Digital Credentials API):
   * the EncryptionInfo the session sent, as base64url text. With `origin` it makes the `dcapi`
   * SessionTranscript an mdoc's device signature covers instead of OID4VP's.
   */
  annexC?: { encryptionInfo: string };
}

export type VerifiedFormat = 'dc+sd-jwt' | 'jwt_vc_json' | 'mso_mdoc';

export interface VerifiedCredential {
  /** The `id` of the DCQL Credential Query the presentation answered. */
  queryId: string;
  format: VerifiedFormat;
  /** `iss` of the credential (issuer-signed). */
  issuer: string;
  /** `vct` of an SD-JWT VC. */
  vct?: string;
  /** `docType` of an mdoc. */
  doctype?: string;
  /** `type` of a W3C credential. */
  type?: string[];
  /**
   * What the credential says. SD-JWT VC: the issuer-signed payload with the presented disclosures
   * applied (nested objects, arrays), without `_sd`, `_sd_alg`, `cnf` and `status`; claims that were
   * not disclosed are absent. jwt_vc_json: the credential (the `vc` claim, the root DCQL paths start
   * from, e.g. `credentialSubject.given_name`).
   */
  claims: Record<string, unknown>;
  /** The holder's public key the presentation was proven with; absent without holder binding. */
  holderKey?: JWK;
  /** `exp` of the credential, when it has one. */
  expiresAt?: Date;
  /** How its issuer was trusted. */
  trust: CredentialTrust;
  /** Its issuer-signed `status.status_list` (Token Status List), checked before this was returned. */
  statusReference?: { idx: number; uri: string };
  /** The transaction data hashes the holder signed with its proof of possession (SD-JWT VC: the KB-JWT's). */
  transactionDataHashes?: TransactionDataHashes;
}

/** OID4VP 1.0 B.3.3 `transaction_data_hashes` and `transaction_data_hashes_alg`, as the holder signed them. */
export interface TransactionDataHashes {
  hashes: string[];
  alg?: string;
}

export interface VerifiedPresentation {
  /** In the order of the DCQL `credentials`, then of the presentations within each entry. */
  credentials: VerifiedCredential[];
}

/** The context with its defaults applied; what the per-format verifiers receive. */
export interface Checks {
  nonce: string;
  clientId: string;
  /** Seconds since the epoch. */
  now: number;
  maxKbAgeSeconds: number;
  skewSeconds: number;
  trustedIssuers: VerificationContext['trustedIssuers'];
  /** The tenant's anchors and listed certificates, parsed (one that does not parse is left out). */
  trust: Trust;
  fetchStatusList: VerificationContext['fetchStatusList'];
  fetchStatusListCwt: VerificationContext['fetchStatusListCwt'];
  transaction: PresentationTransaction;
  profile: VerificationContext['profile'];
  transactionData: readonly string[];
}

export function resolveChecks(ctx: VerificationContext): Checks {
  return {
    nonce: ctx.nonce,
    clientId: ctx.clientId,
    now: Math.floor((ctx.now ?? new Date()).getTime() / 1000),
    maxKbAgeSeconds: ctx.maxKbAgeSeconds ?? 300,
    skewSeconds: ctx.clockSkewSeconds ?? 60,
    trustedIssuers: ctx.trustedIssuers,
    trust: ctx.trust ?? trustOf(ctx.trustAnchors),
    fetchStatusList: ctx.fetchStatusList,
    fetchStatusListCwt: ctx.fetchStatusListCwt,
    transaction: ctx.transaction ?? {},
    profile: ctx.profile,
    transactionData: ctx.transactionData ?? [],
  };
}
