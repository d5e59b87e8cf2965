/**
 * Why a VP Token was rejected, as a machine-readable code the verifier's HTTP side can store with the
 * session and show to the integrator. Every check of this module throws a PresentationError; nothing
 * else escapes `verifyVpToken` (an unexpected exception is wrapped as `malformed`).
 */
export type PresentationErrorCode =
  /** Not a VP Token / presentation of the expected shape: bad JSON, bad JWS, wrong types. */
  | 'malformed'
  /** The query asks for a format this verifier does not verify, or the presentation is of another format. */
  | 'unsupported_format'
  /** An issuer, KB-JWT or VP signature does not verify (or no trusted key matches its `kid`). */
  | 'invalid_signature'
  /** No trust path for the credential's issuer: no keys from `trustedIssuers(iss)` and no `x5c` to check. */
  | 'untrusted_issuer'
  /** The `x5c` chain leads to none of the tenant's trust anchors (an unknown root). */
  | 'certificate_untrusted'
  /** A certificate of the `x5c` chain (or its trust anchor) has expired. */
  | 'certificate_expired'
  /** A certificate of the `x5c` chain (or its trust anchor) is not valid yet. */
  | 'certificate_not_yet_valid'
  /**
   * The `x5c` chain is broken: a signature that does not verify, an intermediate that is no CA or may
   * not sign certificates, a path length exceeded, a self-signed leaf, a leaf that may not sign, a
   * certificate that does not parse or has a critical extension this verifier does not process.
   */
  | 'certificate_invalid'
  /** `iss` is not a subjectAltName of the `x5c` leaf certificate (SD-JWT VC, inline X.509 certificates). */
  | 'certificate_name_mismatch'
  /** The query's `trusted_authorities` (`aki`) matches no certificate of the credential's validated chain. */
  | 'untrusted_authority'
  /** `exp` (or `validUntil` / `expirationDate`) of the credential has passed. */
  | 'expired'
  /** `nbf` / `iat` (or `validFrom` / `issuanceDate`) of the credential is in the future. */
  | 'not_yet_valid'
  /** `vct` (and `aka_vcts`) of an SD-JWT VC is not one of `meta.vct_values`. */
  | 'wrong_vct'
  /** `type` of a W3C credential matches no entry of `meta.type_values`. */
  | 'wrong_type'
  /** A disclosure does not belong to the credential, is repeated, or has a bad shape. */
  | 'tampered_disclosure'
  /** A JWS alg the verifier accepts in general, but the session's profile does not (HAIP 1.0: ES256). */
  | 'unsupported_algorithm'
  /**
   * The session's profile (HAIP 1.0) trusts issuers only by an `x5c` chain to a trust anchor, and the
   * credential (or its Status List Token) has no `x5c`: the `jwks` / `jwt-vc-issuer` paths are off.
   */
  | 'x5c_required'
  /** Holder binding is required but the KB-JWT / VP is absent, or the credential has no `cnf`. */
  | 'missing_key_binding'
  | 'wrong_nonce'
  | 'wrong_audience'
  /** The KB-JWT / VP `iat` is missing, older than `maxKbAgeSeconds`, or in the future. */
  | 'stale_key_binding'
  /** The KB-JWT's `sd_hash` is not the digest of the SD-JWT it came with. */
  | 'sd_hash_mismatch'
  /** Status list entry INVALID (0x01). */
  | 'revoked'
  /** Status list entry SUSPENDED (0x02). */
  | 'suspended'
  /**
   * No statement about the status can be made, so the credential is refused (fail closed): the list
   * cannot be fetched, its signature or claims are bad, the index is outside it, the value is not
   * one of VALID/INVALID/SUSPENDED, or the credential uses a status mechanism not supported here.
   */
  | 'status_unavailable'
  /** A requested claim (or every `claim_sets` option) is not among what was disclosed. */
  | 'missing_claims'
  /** A required Credential Query (or `credential_sets` entry) has no presentation. */
  | 'missing_credential'
  /** The request carried transaction data, and the presentation that may authorize it signed no hashes of it. */
  | 'transaction_data_missing'
  /** The hashes the holder signed are not those of the transaction data sent (or of another algorithm). */
  | 'transaction_data_mismatch';

export class PresentationError extends Error {
  override name = 'PresentationError';
  /** The DCQL Credential Query whose presentation failed, when the failure is about one. */
  readonly queryId?: string;
  constructor(
    readonly code: PresentationErrorCode,
    message: string,
    options: { cause?: unknown; queryId?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.queryId !== undefined) this.queryId = options.queryId;
  }
}

/** Throws a PresentationError unless `ok`; keeps each verification step to one line. */
export function check(ok: unknown, code: PresentationErrorCode, message: string): asserts ok {
  if (!ok) throw new PresentationError(code, message);
}

/** Rejects the presentation: for expressions, where an assertion cannot stand. */
export function reject(code: PresentationErrorCode, message: string, cause?: unknown): never {
  throw new PresentationError(code, message, { cause });
}

/** Adds the DCQL query id to a failure, so the integrator learns which credential failed. */
export function inQuery(queryId: string, e: unknown): PresentationError {
  if (e instanceof PresentationError)
    return new PresentationError(e.code, `${queryId}: ${e.message}`, { cause: e.cause, queryId });
  const message = e instanceof Error ? e.message : String(e);
  return new PresentationError('malformed', `${queryId}: ${message}`, { cause: e, queryId });
}
