/**
 * Verification of OID4VP 1.0 presentations: `verifyVpToken` checks a `vp_token` against the session's
 * DCQL query and returns the verified credentials, or throws a PresentationError with a code.
 */

export type { DcqlQuery } from '../../../contract/oid4vp/dcql-query.js';
export { certificatesFromPem, keyIdentifierOf, parseCertificate } from '../../keys/x509-certificate.js';
export { buildDcqlForVct } from '../../verification/build-dcql.js';
export { PresentationError, type PresentationErrorCode } from './presentation-error.js';
export { jwtVcIssuerMetadataUrl, trustedIssuersFromMetadata } from './resolve-issuer-keys.js';
export { cachedStatusListFetcher, type StatusListCacheOptions } from './status-list-cache.js';
export type {
  CredentialTrust,
  TrustedIssuerKeys,
  TrustMethod,
  VerificationContext,
  VerifiedCredential,
  VerifiedFormat,
  VerifiedPresentation,
} from './types.js';
export { verifyVpToken } from './verify-vp-token.js';
