import { check } from './presentation-error.js';
import type { Checks } from './types.js';

/**
 * The claims that tie a proof of possession to this transaction (OID4VP 1.0 §14.2.2, B.1.3.1.5,
 * B.3.6): `nonce` is the session's, `aud` is exactly the full Client Identifier (a string, not a list
 * that might name other verifiers too), and `iat` lies within the last `maxKbAgeSeconds` (and not
 * beyond the clock skew in the future). Shared by the KB-JWT and the VP JWT.
 */
export function checkTransactionBinding(
  payload: Record<string, unknown>,
  checks: Checks,
  what: string,
): void {
  check(payload.nonce === checks.nonce, 'wrong_nonce', `${what} is for another nonce`);
  check(
    payload.aud === checks.clientId,
    'wrong_audience',
    `${what} is addressed to ${JSON.stringify(payload.aud)}, not ${checks.clientId}`,
  );
  const iat = payload.iat;
  check(typeof iat === 'number' && Number.isFinite(iat), 'stale_key_binding', `${what} has no iat`);
  check(
    iat >= checks.now - checks.maxKbAgeSeconds,
    'stale_key_binding',
    `${what} was made ${checks.now - iat} s ago (at most ${checks.maxKbAgeSeconds} s)`,
  );
  check(iat <= checks.now + checks.skewSeconds, 'stale_key_binding', `${what} is issued in the future`);
  const exp = payload.exp;
  if (exp !== undefined)
    check(
      typeof exp === 'number' && exp > checks.now - checks.skewSeconds,
      'stale_key_binding',
      `${what} has expired`,
    );
}
