import { describe, expect, it } from 'vitest';
import { hashSecret, mintToken, parseToken, secretMatches } from '../../server/tenants/token-secret.js';

describe('bearer token secrets', () => {
  it('mints 256-bit secrets that parse back to their id and kind', () => {
    const minted = mintToken('scim');
    const parsed = parseToken(minted.token);
    expect(parsed).toMatchObject({ kind: 'scim', id: minted.id });
    expect(Buffer.from(parsed?.secret ?? '', 'base64url')).toHaveLength(32);
    expect(minted.secretHash).toBe(hashSecret(parsed?.secret ?? ''));
    expect(minted.token).not.toContain(minted.secretHash);
  });

  it('never mints the same secret twice', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => mintToken('integrator').token));
    expect(tokens.size).toBe(1000);
  });

  it('matches only the right secret', () => {
    const minted = mintToken('integrator');
    const secret = parseToken(minted.token)?.secret ?? '';
    expect(secretMatches(secret, minted.secretHash)).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}x`, minted.secretHash)).toBe(false);
    expect(secretMatches(secret, 'abcd')).toBe(false);
  });

  it('rejects anything not shaped like a token', () => {
    for (const bad of [
      '',
      'cs_int_',
      'Bearer x',
      `cs_xyz_${'a'.repeat(32)}_${'b'.repeat(43)}`,
      `cs_int_${'g'.repeat(32)}_${'b'.repeat(43)}`,
    ]) {
      expect(parseToken(bad)).toBeUndefined();
    }
  });
});
