import type { World } from './hostile-world.js';
import { jwtAttacks } from './jwt-attacks.js';

export type Bearer = 'admin' | 'integrator' | 'access' | 'scim' | 'userinfo';

/**
 * Authorization headers that must not get through a route guarded by `kind`: none, other schemes,
 * malformed, near misses of the right token, right tokens of another audience, a revoked token,
 * and forged JWTs (the service's tokens are opaque, but a JWT is what an attacker tries first).
 */
export function bearerAttacks(
  kind: Bearer,
  w: World,
  adminToken: string,
): { label: string; header: string }[] {
  const own: Record<Bearer, string> = {
    admin: adminToken,
    integrator: w.a.integratorToken,
    access: w.accessToken,
    scim: w.a.scimToken,
    userinfo: w.accessToken,
  };
  const others = Object.entries({
    admin: adminToken,
    integrator: w.a.integratorToken,
    scim: w.a.scimToken,
    access: w.accessToken,
  }).filter(([k]) => k !== kind && !(kind === 'userinfo' && k === 'access'));
  const token = own[kind];
  const plain = [
    { label: 'no Authorization', header: '' },
    { label: 'Basic', header: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` },
    { label: 'Bearer without token', header: 'Bearer' },
    { label: 'Bearer with spaces only', header: 'Bearer    ' },
    { label: 'token with a byte more', header: `Bearer ${token}x` },
    { label: 'token a byte short', header: `Bearer ${token.slice(0, -1)}` },
    { label: 'token twice', header: `Bearer ${token} ${token}` },
    { label: 'long garbage', header: `Bearer ${'A'.repeat(6000)}` },
    { label: 'non-ASCII (Latin-1)', header: `Bearer ${Buffer.from('\u00e9\u00ff').toString('latin1')}` },
    { label: 'revoked integrator token', header: `Bearer ${w.a.revokedToken}` },
    ...others.map(([k, t]) => ({ label: `${k} token instead`, header: `Bearer ${t}` })),
  ];
  const forged = jwtAttacks({
    claims: { iss: 'https://attacker.example', sub: 'admin', aud: 'credservice', scope: 'admin' },
    serviceJwk: w.issuerJwk,
  }).map((a) => ({ label: `JWT: ${a.label}`, header: `Bearer ${a.token}` }));
  return [...plain, ...forged].map((a) => ({ ...a, label: `auth ${a.label}` }));
}
