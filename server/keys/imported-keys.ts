import type { KeyObject } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import { p256PublicKey } from './es256-jws.js';

type Imported = Awaited<ReturnType<typeof importJWK>> | KeyObject;

/** Members of a public JWK that decide what importJWK makes of it (key material, and what it may do). */
const MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'use', 'key_ops', 'ext'] as const;
const MAX_KEYS = 1_000;
const imported = new Map<string, Promise<Imported>>();

/**
 * `importJWK` of a public key, remembered: a presentation is checked against the same issuer and
 * status list keys every time, and importing one costs about a millisecond. Only the members that
 * make the key (never a private `d`) form the cache key, so equal keys share one import; a failed
 * import is not remembered. At most MAX_KEYS keys are kept, the oldest dropped first.
 */
export function importPublicJwk(jwk: JWK, alg: string): Promise<Imported> {
  const { d: _private, ...publicKey } = jwk as JWK & { d?: string };
  // Only asymmetric keys are remembered: their public members above are the whole key.
  if (!['EC', 'OKP', 'RSA'].includes(String(jwk.kty))) return importJWK(publicKey, alg);
  const key = JSON.stringify([alg, ...MEMBERS.map((m) => (jwk as Record<string, unknown>)[m] ?? null)]);
  const known = imported.get(key);
  if (known) return known;
  const importing = importJWK(publicKey, alg);
  if (imported.size >= MAX_KEYS) imported.delete(imported.keys().next().value as string);
  imported.set(key, importing);
  importing.catch(() => imported.get(key) === importing && imported.delete(key));
  return importing;
}

const keyObjects = new Map<string, KeyObject>();

/**
 * An EC P-256 public JWK as a node:crypto KeyObject, remembered like importPublicJwk (by x and y
 * alone) for es256-jws.ts: issuer, status list and c_nonce keys come back on every request, and the
 * on-curve check of an import costs about 200 µs. Throws JwsError for anything else.
 */
export function p256KeyObject(jwk: Record<string, unknown>): KeyObject {
  const id = `${jwk.crv}:${jwk.x}:${jwk.y}`;
  const known = keyObjects.get(id);
  if (known) return known;
  const key = p256PublicKey(jwk);
  if (keyObjects.size >= MAX_KEYS) keyObjects.delete(keyObjects.keys().next().value as string);
  keyObjects.set(id, key);
  return key;
}
