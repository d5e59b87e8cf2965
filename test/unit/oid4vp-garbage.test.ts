import { randomBytes } from 'node:crypto';
import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  PresentationError,
  type PresentationErrorCode,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import {
  context,
  employeeQuery,
  ISSUER,
  issue,
  issuerKey,
  named,
  present,
  VCT,
} from '../support/oid4vp-fixtures.js';

/** Whatever arrives as a vp_token, the answer is a verified result or a PresentationError: nothing else. */

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

async function outcome(vpToken: unknown) {
  try {
    return { result: await verifyVpToken(vpToken, employeeQuery(), context()) };
  } catch (e) {
    return { error: e };
  }
}

async function refused(vpToken: unknown, code?: PresentationErrorCode) {
  const { result, error } = await outcome(vpToken);
  expect(result, `accepted ${String(vpToken).slice(0, 80)}`).toBeUndefined();
  expect(error).toBeInstanceOf(PresentationError);
  if (code) expect(error).toMatchObject({ code });
}

describe('verifyVpToken with garbage', () => {
  it('refuses vp_tokens of the wrong shape', async () => {
    const shapes: unknown[] = [
      undefined,
      null,
      42,
      true,
      'random words',
      '',
      'null',
      '[]',
      '"employee"',
      '{"employee": ',
      [],
      [['eyJ']],
      { employee: 'eyJhbGciOiJFUzI1NiJ9.e30.sig~' },
      { employee: [] },
      { employee: {} },
      { employee: null },
      JSON.stringify({ employee: 'x' }),
    ];
    for (const shape of shapes) await refused(shape, 'malformed');
  });

  it('refuses presentations that are not SD-JWTs', async () => {
    const header = b64({ alg: 'ES256', typ: 'dc+sd-jwt', kid: 'issuer-1' });
    const presentations: unknown[] = [
      null,
      42,
      {},
      ['a'],
      '',
      '~',
      '~~~',
      'a.b.c',
      'a.b.c~',
      '....~~',
      'eyJ.eyJ.eyJ~',
      `${b64('not json')}.${b64({})}.AAAA~`,
      `${b64([1, 2])}.${b64({})}.AAAA~`,
      `${header}.${b64([1])}.AAAA~`,
      `${header}.${b64('"string"')}.AAAA~`,
      `${header}.${b64({ iss: 'https://issuer.example' })}.!!!!~`,
      `${header}.${b64({ iss: 'https://issuer.example' })}.AAAA~a~~`,
      `${b64({ typ: 'dc+sd-jwt' })}.${b64({})}.AAAA~`,
      `${header}\u0000.${b64({})}.AAAA~`,
    ];
    for (const p of presentations) await refused({ employee: [p] });
  });

  it('refuses an issuer JWT of another kind or without issuer', async () => {
    const sign = (header: unknown, payload: unknown) =>
      `${b64(header)}.${b64(payload)}.${randomBytes(64).toString('base64url')}~`;
    await refused({ employee: [sign({ alg: 'ES256', typ: 'JWT' }, { iss: 'x' })] }, 'unsupported_format');
    await refused({ employee: [sign({ alg: 'ES256', typ: 'dc+sd-jwt' }, { vct: 'x' })] }, 'malformed');
    await refused({ employee: [sign({ alg: 'none', typ: 'dc+sd-jwt' }, { iss: 'x' })] }, 'invalid_signature');
  });

  it('refuses random strings and random bytes', async () => {
    for (let i = 0; i < 200; i++) {
      const s = randomBytes(1 + (i % 64)).toString(i % 2 ? 'base64url' : 'latin1');
      await refused(i % 3 ? { employee: [s] } : s);
    }
  });

  it('never accepts a mutated presentation with other claims, and never throws anything else', async () => {
    const vp = await present(await issue(), named('email', 'given_name'));
    const original = await verifyVpToken({ employee: [vp] }, employeeQuery(), context());
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~.';
    for (let i = 0; i < 300; i++) {
      const at = (i * 7919) % vp.length;
      const char = alphabet[(i * 31) % alphabet.length] as string;
      const mutated = vp.slice(0, at) + char + vp.slice(at + 1);
      if (mutated === vp) continue;
      const { result, error } = await outcome({ employee: [mutated] });
      if (error) expect(error).toBeInstanceOf(PresentationError);
      // A change in the ignored low bits of a base64url character can leave the bytes intact.
      else expect(result).toEqual(original);
    }
  });

  it('refuses disclosures of the wrong shape', async () => {
    const credential = await issue();
    const [jwt] = credential.split('~');
    for (const bad of [
      b64('x'),
      b64([]),
      b64(['salt']),
      b64([1, 'email', 'x']),
      b64(['s', 'n', 'v', 'extra']),
      b64(['s', '_sd', 1]),
      '!!',
    ]) {
      const sdJwt = `${jwt}~${bad}~`;
      await refused({ employee: [sdJwt] });
    }
  });

  it('refuses a validly signed credential nested beyond reason', async () => {
    const depth = 10_000;
    const payload = `{"iss":"${ISSUER}","vct":"${VCT}","deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const jwt = await new CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', kid: 'issuer-1' })
      .sign(issuerKey.privateKey);
    await refused({ employee: [`${jwt}~`] }, 'malformed');
  });
});
