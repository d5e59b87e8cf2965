/**
 * Why an `x5c` chain did not validate (validateChain). The chain check serves the verifier (a
 * credential's issuer chain) and the issuer (wallet and key attestations), so its failure names
 * itself neutrally; each caller turns it into its audience's error (a PresentationError at the
 * verifier, an OAuth error at the issuer) and keeps the code, which says what kind of failure it was.
 */
export type ChainErrorCode =
  /** The chain leads to none of the trust anchors (an unknown root). */
  | 'certificate_untrusted'
  /** A certificate of the chain (or its trust anchor) has expired. */
  | 'certificate_expired'
  /** A certificate of the chain (or its trust anchor) is not valid yet. */
  | 'certificate_not_yet_valid'
  /**
   * The chain is broken: a signature that does not verify, an intermediate that is no CA or may not
   * sign certificates, a path length exceeded, a self-signed leaf, a leaf that may not sign, a
   * certificate that does not parse or has a critical extension the chain check does not process,
   * a trust anchor included where it must not be.
   */
  | 'certificate_invalid';

export class ChainError extends Error {
  override name = 'ChainError';
  constructor(
    readonly code: ChainErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Throws a ChainError unless `ok`; keeps each step of the chain check to one line. */
export function check(ok: unknown, code: ChainErrorCode, message: string): asserts ok {
  if (!ok) throw new ChainError(code, message);
}

/** Refuses the chain: for expressions, where an assertion cannot stand. */
export function reject(code: ChainErrorCode, message: string): never {
  throw new ChainError(code, message);
}
