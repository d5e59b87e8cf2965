import { base64url, compactVerify, type JWK } from 'jose';
import { es256Verifies } from '../../keys/es256-jws.js';
import { importPublicJwk, p256KeyObject } from '../../keys/imported-keys.js';
import { check, type PresentationErrorCode, reject } from './presentation-error.js';

/** Signature algorithms accepted anywhere in a presentation: asymmetric only, never `none` or a MAC. */
export const ACCEPTED_ALGS = [
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

export interface DecodedJws {
  compact: string;
  header: Record<string, unknown> & { alg: string };
  payload: Record<string, unknown>;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function decodeJsonPart(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(part)));
  } catch {
    reject('malformed', `${what} is not base64url-encoded JSON`);
  }
  check(isObject(value), 'malformed', `${what} is not a JSON object`);
  return value;
}

/**
 * Splits and decodes a compact JWS without verifying it. `what` names it in messages ("the KB-JWT").
 * An unacceptable `alg` is `invalid_signature`: such a token can never be verified.
 */
export function decodeJws(compact: unknown, what: string): DecodedJws {
  check(typeof compact === 'string', 'malformed', `${what} is not a string`);
  const parts = compact.split('.');
  check(
    parts.length === 3 && B64URL.test(parts[0] ?? '') && B64URL.test(parts[1] ?? ''),
    'malformed',
    `${what} is not a compact JWS`,
  );
  check(parts[2] === '' || B64URL.test(parts[2] ?? ''), 'malformed', `${what} has a bad signature part`);
  const header = decodeJsonPart(parts[0] as string, `the header of ${what}`);
  const payload = decodeJsonPart(parts[1] as string, `the payload of ${what}`);
  check(typeof header.alg === 'string', 'malformed', `${what} has no alg`);
  check(ACCEPTED_ALGS.includes(header.alg), 'invalid_signature', `${what} uses alg ${header.alg}`);
  return { compact, header: header as DecodedJws['header'], payload };
}

async function verifies(jws: DecodedJws, key: JWK): Promise<boolean> {
  try {
    // ES256 with a P-256 key, all this service issues and HAIP allows, takes node:crypto's direct route.
    if (jws.header.alg === 'ES256' && key.kty === 'EC' && key.crv === 'P-256') {
      const dot = jws.compact.lastIndexOf('.');
      const signed = {
        header: jws.header,
        signingInput: jws.compact.slice(0, dot),
        signature: Buffer.from(jws.compact.slice(dot + 1), 'base64url'),
      };
      // No extension is understood, as jose's compactVerify would refuse one.
      return (
        jws.header.crit === undefined && es256Verifies(signed, p256KeyObject(key as Record<string, unknown>))
      );
    }
    const imported = await importPublicJwk(key, jws.header.alg);
    await compactVerify(jws.compact, imported, { algorithms: [jws.header.alg] });
    return true;
  } catch {
    return false;
  }
}

/**
 * Verifies a JWS with one of `keys`: the ones whose `kid` equals the header's when it has one,
 * else every key, skipping encryption keys and keys pinned to another `alg`. Returns the key used.
 */
export async function verifyWithKeys(
  jws: DecodedJws,
  keys: JWK[],
  what: string,
  code: PresentationErrorCode = 'invalid_signature',
): Promise<JWK> {
  const kid = jws.header.kid;
  const candidates = keys.filter(
    (k) =>
      isObject(k) &&
      (typeof kid !== 'string' || k.kid === kid) &&
      k.use !== 'enc' &&
      (k.alg === undefined || k.alg === jws.header.alg),
  );
  check(
    candidates.length > 0,
    code,
    typeof kid === 'string' ? `no trusted key with kid ${kid} for ${what}` : `no trusted key for ${what}`,
  );
  for (const key of candidates) if (await verifies(jws, key)) return key;
  return reject(code, `the signature of ${what} does not verify`);
}

/** Verifies a JWS with the one key it must be signed with (a holder key). */
export async function verifyWithKey(jws: DecodedJws, key: JWK, what: string): Promise<void> {
  check(await verifies(jws, key), 'invalid_signature', `the signature of ${what} does not verify`);
}

/** A public JWK from a claim (`cnf.jwk`, a JWS header `jwk`): an object with `kty` and no private part. */
export function publicJwk(value: unknown, what: string): JWK {
  check(isObject(value) && typeof value.kty === 'string', 'malformed', `${what} is not a JWK`);
  check(!('d' in value), 'malformed', `${what} is a private key`);
  return value as JWK;
}
