import type { JWK } from 'jose';
import { checkProfileAlg } from './check-haip-profile.js';
import { decodeJws, verifyWithKey } from './jws.js';
import { check } from './presentation-error.js';
import { sdDigest } from './sd-jwt.js';
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

export interface KeyBindingInput {
  /** The compact KB-JWT, the last part of the presentation. */
  keyBindingJwt: string;
  /** `cnf.jwk` of the credential. */
  holderKey: JWK;
  /** The presented SD-JWT up to and including the last `~`. */
  sdJwt: string;
  /** `_sd_alg` of the credential: also the `sd_hash` algorithm (RFC 9901 §4.3.1). */
  sdAlg: string;
}

/**
 * Verifies the Key Binding JWT of an SD-JWT presentation (RFC 9901 §7.3): `typ` kb+jwt, signed by
 * the credential's `cnf.jwk`, `sd_hash` over exactly the SD-JWT and disclosures it came with, and the
 * transaction binding above. (@sd-jwt checks neither `aud` nor `iat` freshness; this does both.)
 */
export async function checkKeyBinding(input: KeyBindingInput, checks: Checks): Promise<void> {
  const kb = decodeJws(input.keyBindingJwt, 'the KB-JWT');
  check(kb.header.typ === 'kb+jwt', 'malformed', `the KB-JWT has typ ${String(kb.header.typ)}, not kb+jwt`);
  checkProfileAlg(kb, checks, 'the KB-JWT');
  await verifyWithKey(kb, input.holderKey, 'the KB-JWT (with the holder key cnf.jwk)');
  check(
    typeof kb.payload.sd_hash === 'string' && kb.payload.sd_hash === sdDigest(input.sdAlg, input.sdJwt),
    'sd_hash_mismatch',
    'the KB-JWT sd_hash is not the digest of the presented SD-JWT',
  );
  checkTransactionBinding(kb.payload, checks, 'the KB-JWT');
}
