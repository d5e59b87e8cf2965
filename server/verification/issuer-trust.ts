import type { JWK } from 'jose';

/**
 * How a verification came to trust a credential's issuer: the verifier's vocabulary, shared by the
 * OID4VP verification code that decides it and the session result that reports it.
 */
/** How the issuer's key was established (the names are those of the session result). */
export type TrustMethod = 'x509' | 'trusted_list' | 'jwks' | 'jwt-vc-issuer-metadata';

/** Keys of a trusted issuer, saying where they come from; a plain array counts as configured `jwks`. */
export interface TrustedIssuerKeys {
  keys: JWK[];
  method: Exclude<TrustMethod, 'x509' | 'trusted_list'>;
}

/** Which trust path accepted a credential's issuer. */
export interface CredentialTrust {
  method: TrustMethod;
  /** x509: SHA-256 (hex) of the trust anchor the chain led to, as the trust-anchor API names it. */
  anchor?: string;
  /** x509: the anchor's subject. */
  anchorSubject?: string;
  /** trusted_list: the trust source that vouched, the listed entity and the service type it is trusted as. */
  source?: string;
  entity?: string;
  serviceType?: string;
}
