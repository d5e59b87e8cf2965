/** Time claims are rounded down to this, so credentials issued close together share them. */
const ROUNDING_SECONDS = 3600;

/**
 * The `iat` and `exp` of a batch (and of a single credential). OID4VCI 1.0 section 15.4.1 asks
 * issuers to randomise or round time claims so that a verifier cannot link the credentials of one
 * batch, or one holder's presentations, by an exact issuance second: `iat` is the issuance time
 * rounded down to the hour, shared by everyone issued in that hour, and `exp` is `iat` plus the
 * configuration's validity (so a credential is valid at most an hour less than configured, never
 * longer).
 */
export function batchValidity(now: Date, validitySeconds: number): { issuedAt: Date; expiresAt: Date } {
  const rounded = Math.floor(now.getTime() / 1000 / ROUNDING_SECONDS) * ROUNDING_SECONDS;
  const issuedAt = new Date(rounded * 1000);
  return { issuedAt, expiresAt: new Date((rounded + validitySeconds) * 1000) };
}
