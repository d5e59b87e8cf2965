import { createHmac, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { JWK } from 'jose';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** Signs any header at all, including ones a JOSE library would refuse to produce. */
function es256(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

function hs256(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  secret: string | Buffer,
): string {
  const input = `${b64({ alg: 'HS256', ...header })}.${b64(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const attacker = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const attackerJwk = attacker.publicKey.export({ format: 'jwk' });

export interface JwtTarget {
  /** Claims a genuine token would carry (iss, aud, nonce, …); the attacks vary around them. */
  claims: Record<string, unknown>;
  typ?: string;
  /** A public key of the service: the secret of the HS256 confusion attack, and the kid to borrow. */
  serviceJwk: JWK;
  /** A key the service does trust for this token (a registered client's, a holder's), when there is one. */
  ownKey?: { key: KeyObject; kid?: string; header?: Record<string, unknown> };
}

/**
 * Forged JWTs of every kind the suite sends to token-bearing routes: unsigned (alg none), HMAC keyed
 * with the service's public key, kid/jku/x5u/jwk/x5c header tricks, unknown crit, and (with a
 * trusted key) expired, not yet valid, wrong audience and wrong typ. None of them may be accepted.
 */
export function jwtAttacks(t: JwtTarget): { label: string; token: string }[] {
  const typ = t.typ ?? 'JWT';
  const claims = { iat: now(), exp: now() + 300, jti: `hostile-${Math.random()}`, ...t.claims };
  const pem = createPublicKey({ key: t.serviceJwk as never, format: 'jwk' }).export({
    type: 'spki',
    format: 'pem',
  });
  const serviceKid = t.serviceJwk.kid ?? 'kid';
  const forged = (header: Record<string, unknown>) =>
    es256({ alg: 'ES256', typ, ...header }, claims, attacker.privateKey);
  const attacks = [
    { label: 'alg none', token: `${b64({ alg: 'none', typ })}.${b64(claims)}.` },
    { label: 'alg NoNe', token: `${b64({ alg: 'NoNe', typ })}.${b64(claims)}.` },
    { label: 'HS256 keyed with the public PEM', token: hs256({ typ, kid: serviceKid }, claims, String(pem)) },
    {
      label: 'HS256 keyed with the public JWK',
      token: hs256({ typ, kid: serviceKid }, claims, JSON.stringify(t.serviceJwk)),
    },
    {
      label: 'kid path traversal, empty key',
      token: hs256({ typ, kid: '../../../../../../dev/null' }, claims, Buffer.alloc(1)),
    },
    { label: 'kid SQL injection', token: hs256({ typ, kid: "x' union select 'k' --" }, claims, 'k') },
    { label: 'NUL in kid', token: forged({ kid: 'a\u0000b' }) },
    {
      label: 'NUL in every claim',
      token: es256(
        { alg: 'ES256', typ },
        Object.fromEntries(
          Object.entries(claims).map(([k, v]) => [k, typeof v === 'string' ? `${v}\u0000` : v]),
        ),
        attacker.privateKey,
      ),
    },
    { label: 'kid of the service, attacker key', token: forged({ kid: serviceKid }) },
    { label: 'jku to the attacker', token: forged({ kid: 'a', jku: 'http://127.0.0.1:9/jwks.json' }) },
    { label: 'x5u to the attacker', token: forged({ x5u: 'http://127.0.0.1:9/cert.pem' }) },
    { label: 'embedded attacker jwk', token: forged({ jwk: attackerJwk }) },
    { label: 'garbage x5c', token: forged({ x5c: ['MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'] }) },
    { label: 'unknown crit', token: forged({ crit: ['x-hostile'], 'x-hostile': true }) },
    { label: 'b64 false', token: forged({ b64: false, crit: ['b64'] }) },
    { label: 'claims not an object', token: `${b64({ alg: 'ES256', typ })}.${b64('[1,2]')}.${b64('sig')}` },
    { label: 'header not JSON', token: `${b64('{"alg":')}.${b64(claims)}.${b64('sig')}` },
    { label: 'not base64url', token: '!!!.@@@.###' },
    { label: 'two segments', token: `${b64({ alg: 'ES256' })}.${b64(claims)}` },
    {
      label: 'five segments (JWE alg dir)',
      token: `${b64({ alg: 'dir', enc: 'A256GCM' })}..${b64('iv')}.${b64('ct')}.${b64('tag')}`,
    },
    {
      label: 'huge exp, negative iat',
      token: forged({}).replace(
        /^[^.]+\.[^.]+/,
        `${b64({ alg: 'ES256', typ })}.${b64({ ...claims, exp: 1e308, iat: -1 })}`,
      ),
    },
  ];
  if (t.ownKey) {
    const own = (c: Record<string, unknown>, header: Record<string, unknown> = {}) =>
      es256(
        {
          alg: 'ES256',
          typ,
          ...(t.ownKey?.kid ? { kid: t.ownKey.kid } : {}),
          ...t.ownKey?.header,
          ...header,
        },
        { ...claims, ...c },
        t.ownKey?.key as KeyObject,
      );
    attacks.push(
      { label: 'trusted key, expired', token: own({ iat: now() - 7200, exp: now() - 3600 }) },
      { label: 'trusted key, not yet valid', token: own({ iat: now() + 3600, nbf: now() + 3600 }) },
      { label: 'trusted key, wrong audience', token: own({ aud: 'https://attacker.example' }) },
      { label: 'trusted key, wrong typ', token: own({}, { typ: 'at+jwt' }) },
      { label: 'trusted key, header says ES384', token: own({}, { alg: 'ES384' }) },
    );
  }
  return attacks;
}
