import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, calculateJwkThumbprint, compactVerify, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  checkJwtTimes,
  decodeJws,
  ecJwkThumbprint,
  es256Verifies,
  JwsError,
  p256PublicKey,
  signEs256,
} from '../../server/keys/es256-jws.js';

const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = keys.publicKey.export({ format: 'jwk' }) as JWK;

describe('es256-jws (node:crypto ES256 for the hot paths)', () => {
  it('signs what jose verifies, and verifies what jose signs', async () => {
    const ours = signEs256(keys.privateKey, { typ: 'x+jwt' }, { a: 1 });
    const { protectedHeader, payload } = await compactVerify(ours, keys.publicKey);
    expect(protectedHeader).toEqual({ typ: 'x+jwt', alg: 'ES256' });
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ a: 1 });

    const theirs = await new CompactSign(new TextEncoder().encode('{"b":2}'))
      .setProtectedHeader({ alg: 'ES256' })
      .sign(keys.privateKey);
    const decoded = decodeJws(theirs);
    expect(decoded.payload).toEqual({ b: 2 });
    expect(es256Verifies(decoded, p256PublicKey(jwk as Record<string, unknown>))).toBe(true);
    expect(es256Verifies(decoded, other.publicKey)).toBe(false);
  });

  it('refuses a changed payload, another alg, a short signature and crit', () => {
    const jws = signEs256(keys.privateKey, {}, { a: 1 });
    const [h, , s] = jws.split('.');
    const changed = decodeJws(`${h}.${Buffer.from('{"a":2}').toString('base64url')}.${s}`);
    expect(es256Verifies(changed, keys.publicKey)).toBe(false);
    const decoded = decodeJws(jws);
    expect(es256Verifies({ ...decoded, header: { alg: 'HS256' } }, keys.publicKey)).toBe(false);
    expect(es256Verifies({ ...decoded, signature: decoded.signature.subarray(1) }, keys.publicKey)).toBe(
      false,
    );
    const crit = signEs256(keys.privateKey, { crit: ['b64'], b64: false }, { a: 1 });
    expect(() => decodeJws(crit)).toThrow(/crit/);
  });

  it('refuses what is not a compact JWS with a JSON object payload', () => {
    for (const bad of [
      'a.b',
      'a.b.c.d',
      'e30.W10.c2ln',
      'e30.e30.!!',
      `e30.${Buffer.from('1').toString('base64url')}.c2ln`,
    ])
      expect(() => decodeJws(bad)).toThrow(JwsError);
  });

  it('takes only public P-256 points on the curve', () => {
    expect(() => p256PublicKey({ kty: 'EC', crv: 'P-384', x: 'a', y: 'b' })).toThrow(JwsError);
    const offCurve = { ...jwk, y: jwk.x } as Record<string, unknown>;
    expect(() => p256PublicKey(offCurve)).toThrow(JwsError);
    expect(p256PublicKey(jwk as Record<string, unknown>).equals(keys.publicKey)).toBe(true);
  });

  it('computes the RFC 7638 thumbprint jose computes', async () => {
    expect(ecJwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk));
  });

  it('checks exp and nbf as jose does', () => {
    expect(() => checkJwtTimes({ exp: 100 }, 100)).toThrow(/exp/);
    expect(() => checkJwtTimes({ nbf: 101 }, 100)).toThrow(/nbf/);
    expect(() => checkJwtTimes({ exp: '200' }, 100)).toThrow(/number/);
    expect(() => checkJwtTimes({ exp: 101, nbf: 100, iat: 99 }, 100)).not.toThrow();
  });
});
