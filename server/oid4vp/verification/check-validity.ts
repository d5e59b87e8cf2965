import { check } from './presentation-error.js';
import type { Checks } from './types.js';

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The validity period of a credential from its JWT claims (RFC 7519 §4.1.4-6): `exp` passed is
 * `expired`; `nbf` or `iat` in the future is `not_yet_valid`; each with the clock skew tolerated.
 * A present claim that is not a number is `malformed`. Returns `exp` when present.
 */
export function checkValidityClaims(payload: Record<string, unknown>, checks: Checks): number | undefined {
  const { exp, nbf, iat } = payload;
  for (const [name, value] of Object.entries({ exp, nbf, iat }))
    check(value === undefined || isTime(value), 'malformed', `${name} of the credential is not a number`);
  if (isTime(exp)) check(exp > checks.now - checks.skewSeconds, 'expired', 'the credential has expired');
  if (isTime(nbf))
    check(nbf <= checks.now + checks.skewSeconds, 'not_yet_valid', 'the credential is not valid yet');
  if (isTime(iat))
    check(iat <= checks.now + checks.skewSeconds, 'not_yet_valid', 'the credential is issued in the future');
  return isTime(exp) ? exp : undefined;
}

/** Seconds since the epoch of an XML Schema dateTime (`validUntil`, `expirationDate`, …), if it parses. */
function dateTime(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  check(Number.isFinite(ms), 'malformed', `${name} of the credential is not a date-time`);
  return ms / 1000;
}

/**
 * The validity period a W3C credential states inside `vc` (VCDM 1.1 `issuanceDate`/`expirationDate`,
 * VCDM 2.0 `validFrom`/`validUntil`), checked in addition to the JWT claims.
 */
export function checkW3cValidity(vc: Record<string, unknown>, checks: Checks): void {
  const until = [dateTime(vc.expirationDate, 'expirationDate'), dateTime(vc.validUntil, 'validUntil')];
  const from = [dateTime(vc.issuanceDate, 'issuanceDate'), dateTime(vc.validFrom, 'validFrom')];
  for (const t of until)
    if (t !== undefined) check(t > checks.now - checks.skewSeconds, 'expired', 'the credential has expired');
  for (const t of from)
    if (t !== undefined)
      check(t <= checks.now + checks.skewSeconds, 'not_yet_valid', 'the credential is not valid yet');
}
