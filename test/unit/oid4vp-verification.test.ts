import { describe, expect, it } from 'vitest';
import type { DcqlQuery } from '../../server/oid4vp/verification/index.js';
import {
  type PresentationErrorCode,
  type VerificationContext,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import { StatusType } from '../../server/status-list/status-list-encoding.js';
import {
  all,
  CLIENT_ID,
  context,
  decodeDisclosure,
  EMPLOYEE,
  employeeQuery,
  encodeDisclosure,
  holder,
  ISSUER,
  issue,
  kbJwt,
  keyPair,
  memorySigner,
  NONCE,
  NOW,
  named,
  nowSeconds,
  present,
  resign,
  selectDisclosures,
  sha256,
  statusLists,
  VCT,
} from '../support/oid4vp-fixtures.js';

/** SD-JWT VC presentations (OID4VP 1.0 §B.3) against the service's own issuance. */

async function rejects(vpToken: unknown, query: DcqlQuery, code: PresentationErrorCode, ctx = context()) {
  const error = await verifyVpToken(vpToken, query, ctx).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'verification should fail').toMatchObject({ name: 'PresentationError', code });
  return error as Error;
}

describe('verifyVpToken with an SD-JWT VC', () => {
  it('accepts selected disclosures and returns the disclosed claims, nested', async () => {
    const credential = await issue();
    const vp = await present(credential, named('email', 'street', 'given_name'));
    const result = await verifyVpToken(
      { employee: [vp] },
      employeeQuery([['email'], ['address', 'street']]),
      context(),
    );
    expect(result.credentials).toHaveLength(1);
    const [verified] = result.credentials;
    expect(verified).toMatchObject({
      queryId: 'employee',
      format: 'dc+sd-jwt',
      issuer: ISSUER,
      vct: VCT,
      holderKey: holder.publicJwk,
    });
    expect(verified?.claims).toMatchObject({
      given_name: 'Ana',
      email: 'ana@acme.test',
      address: { street: 'Calle Mayor 1', locality: 'Madrid', country: 'ES' },
      department: 'R&D',
      roles: [],
    });
    // Withheld claims stay withheld; technical claims are not reported.
    expect(verified?.claims).not.toHaveProperty('family_name');
    expect(verified?.claims).not.toHaveProperty('_sd');
    expect(verified?.claims).not.toHaveProperty('cnf');
    expect(verified?.claims).not.toHaveProperty('status');
    expect(verified?.expiresAt?.getTime()).toBeGreaterThan(NOW.getTime());
  });

  it('accepts the vp_token as JSON text (as a direct_post form field carries it)', async () => {
    const vp = await present(await issue(), named('email'));
    const result = await verifyVpToken(JSON.stringify({ employee: [vp] }), employeeQuery(), context());
    expect(result.credentials[0]?.claims.email).toBe('ana@acme.test');
  });

  it('discloses array elements', async () => {
    const vp = await present(await issue(), (d) => d.value === 'dev');
    const result = await verifyVpToken({ employee: [vp] }, employeeQuery([['roles', null]]), context());
    expect(result.credentials[0]?.claims.roles).toEqual(['dev']);
  });

  it('accepts the legacy typ vc+sd-jwt', async () => {
    const legacy = await resign(await issue(), (header) => {
      header.typ = 'vc+sd-jwt';
    });
    const result = await verifyVpToken({ employee: [await present(legacy)] }, employeeQuery(), context());
    expect(result.credentials[0]?.vct).toBe(VCT);
  });

  it('checks the status once per credential and accepts VALID', async () => {
    const lists = statusLists();
    lists.set(8, StatusType.INVALID); // a neighbour, in the same byte
    const result = await verifyVpToken(
      { employee: [await present(await issue({ idx: 7 }))] },
      employeeQuery(),
      context({ fetchStatusList: lists.fetch }),
    );
    expect(result.credentials).toHaveLength(1);
    expect(lists.fetched).toEqual([expect.stringContaining('/status-lists/')]);
  });

  it('returns several presentations when multiple is true, in order', async () => {
    const a = await present(await issue({ claims: { ...EMPLOYEE, email: 'a@x.test' } }));
    const b = await present(await issue({ claims: { ...EMPLOYEE, email: 'b@x.test' } }));
    const query = employeeQuery();
    (query.credentials[0] as { multiple?: boolean }).multiple = true;
    const result = await verifyVpToken({ employee: [a, b] }, query, context());
    expect(result.credentials.map((c) => c.claims.email)).toEqual(['a@x.test', 'b@x.test']);
  });

  it('accepts no KB-JWT only when the query does not require holder binding', async () => {
    const credential = await issue({ holderJwk: null });
    const query = employeeQuery();
    (
      query.credentials[0] as { require_cryptographic_holder_binding?: boolean }
    ).require_cryptographic_holder_binding = false;
    const result = await verifyVpToken({ employee: [selectDisclosures(credential, all)] }, query, context());
    expect(result.credentials[0]?.holderKey).toBeUndefined();
    await rejects({ employee: [selectDisclosures(credential, all)] }, employeeQuery(), 'missing_key_binding');
  });
});

describe('verifyVpToken refuses an SD-JWT VC presentation', () => {
  it('of a revoked credential', async () => {
    const lists = statusLists();
    lists.set(7, StatusType.INVALID);
    const vp = await present(await issue({ idx: 7 }));
    await rejects({ employee: [vp] }, employeeQuery(), 'revoked', context({ fetchStatusList: lists.fetch }));
  });

  it('of a suspended credential', async () => {
    const lists = statusLists();
    lists.set(7, StatusType.SUSPENDED);
    const vp = await present(await issue({ idx: 7 }));
    await rejects(
      { employee: [vp] },
      employeeQuery(),
      'suspended',
      context({ fetchStatusList: lists.fetch }),
    );
  });

  it('with a tampered disclosure', async () => {
    const credential = await issue();
    const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
    const forged = disclosures.map((e) => {
      const d = decodeDisclosure(e);
      return d.name === 'email'
        ? encodeDisclosure([JSON.parse(Buffer.from(e, 'base64url').toString())[0], 'email', 'boss@acme.test'])
        : e;
    });
    const sdJwt = `${[jwt, ...forged].join('~')}~`;
    const error = await rejects(
      { employee: [sdJwt + (await kbJwt(sdJwt))] },
      employeeQuery(),
      'tampered_disclosure',
    );
    expect(error.message).toMatch(/^employee: /);
  });

  it('with a disclosure of another credential', async () => {
    const other = (await issue()).split('~').filter(Boolean).slice(1).map(decodeDisclosure);
    const credential = await issue();
    const sdJwt = `${selectDisclosures(credential, named('email'))}${other[0]?.encoded}~`;
    await rejects({ employee: [sdJwt + (await kbJwt(sdJwt))] }, employeeQuery(), 'tampered_disclosure');
  });

  it('with the same disclosure twice', async () => {
    const sdJwt = selectDisclosures(await issue(), named('email'));
    const doubled = `${sdJwt}${sdJwt.split('~')[1]}~`;
    await rejects({ employee: [doubled + (await kbJwt(doubled))] }, employeeQuery(), 'tampered_disclosure');
  });

  it('whose issuer-signed payload was altered', async () => {
    const credential = await issue();
    const [jwt, ...rest] = credential.split('~');
    const [h, p, s] = (jwt ?? '').split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    payload.department = 'Board';
    const altered = [
      [h, Buffer.from(JSON.stringify(payload)).toString('base64url'), s].join('.'),
      ...rest,
    ].join('~');
    await rejects({ employee: [await present(altered)] }, employeeQuery(), 'invalid_signature');
  });

  it('signed by an untrusted key in the name of a trusted issuer', async () => {
    const rogue = keyPair('issuer-1');
    const credential = await issue({ signer: memorySigner({ issuer: rogue, status: rogue }) });
    await rejects({ employee: [await present(credential)] }, employeeQuery(), 'invalid_signature');
  });

  it('from an untrusted issuer', async () => {
    const credential = await issue({ issuer: 'https://rogue.example' });
    await rejects({ employee: [await present(credential)] }, employeeQuery(), 'untrusted_issuer');
    // A failing trust lookup is no trust either.
    const failing = context({ trustedIssuers: async () => Promise.reject(new Error('down')) });
    await rejects({ employee: [await present(await issue())] }, employeeQuery(), 'untrusted_issuer', failing);
  });

  it('with a KB-JWT for another nonce', async () => {
    const vp = await present(await issue(), all, { nonce: 'another-nonce' });
    await rejects({ employee: [vp] }, employeeQuery(), 'wrong_nonce');
    await rejects(
      { employee: [await present(await issue(), all, { nonce: undefined })] },
      employeeQuery(),
      'wrong_nonce',
    );
  });

  it('with a KB-JWT for another audience, or the client_id without its prefix', async () => {
    for (const aud of [
      'x509_san_dns:other.example',
      'verifier.example',
      [CLIENT_ID, 'x509_san_dns:other.example'],
    ])
      await rejects(
        { employee: [await present(await issue(), all, { aud })] },
        employeeQuery(),
        'wrong_audience',
      );
  });

  it('with a stale, future or missing KB-JWT iat', async () => {
    const credential = await issue();
    for (const iat of [nowSeconds - 301, nowSeconds + 120, undefined, '2026-03-02'])
      await rejects(
        { employee: [await present(credential, all, { iat })] },
        employeeQuery(),
        'stale_key_binding',
      );
    // The window is configurable.
    const vp = await present(credential, all, { iat: nowSeconds - 600 });
    await verifyVpToken({ employee: [vp] }, employeeQuery(), context({ maxKbAgeSeconds: 900 }));
  });

  it('without a KB-JWT', async () => {
    const vp = selectDisclosures(await issue(), all);
    await rejects({ employee: [vp] }, employeeQuery(), 'missing_key_binding');
  });

  it('of a credential without cnf', async () => {
    const credential = await issue({ holderJwk: null });
    await rejects({ employee: [await present(credential)] }, employeeQuery(), 'missing_key_binding');
  });

  it('whose KB-JWT covers other disclosures (sd_hash)', async () => {
    const credential = await issue();
    const full = selectDisclosures(credential, all);
    const kb = await kbJwt(full);
    // A disclosure stripped after the holder signed.
    const stripped = selectDisclosures(credential, named('email'));
    await rejects({ employee: [stripped + kb] }, employeeQuery(), 'sd_hash_mismatch');
    await rejects(
      { employee: [await present(credential, all, { sdHash: 'AAAA' })] },
      employeeQuery(),
      'sd_hash_mismatch',
    );
  });

  it('with a KB-JWT signed by another key than cnf.jwk', async () => {
    const vp = await present(await issue(), all, { key: keyPair().privateKey });
    await rejects({ employee: [vp] }, employeeQuery(), 'invalid_signature');
  });

  it('with a KB-JWT of the wrong typ', async () => {
    await rejects(
      { employee: [await present(await issue(), all, { typ: 'JWT' })] },
      employeeQuery(),
      'malformed',
    );
  });

  it('of an expired credential, or one not valid yet', async () => {
    const expired = await issue({ expiresAt: new Date(NOW.getTime() - 3_600_000) });
    await rejects({ employee: [await present(expired)] }, employeeQuery(), 'expired');
    const future = await issue({ issuedAt: new Date(NOW.getTime() + 3_600_000) });
    await rejects({ employee: [await present(future)] }, employeeQuery(), 'not_yet_valid');
    const nbf = await resign(await issue(), (_, payload) => {
      payload.nbf = nowSeconds + 3600;
    });
    await rejects({ employee: [await present(nbf)] }, employeeQuery(), 'not_yet_valid');
  });

  it('of another vct', async () => {
    const credential = await issue({ vct: 'https://issuer.example/credentials/visitor' });
    await rejects({ employee: [await present(credential)] }, employeeQuery(), 'wrong_vct');
  });

  it('without a requested claim', async () => {
    const vp = await present(await issue(), named('given_name'));
    const error = await rejects(
      { employee: [vp] },
      employeeQuery([['given_name'], ['email']]),
      'missing_claims',
    );
    expect(error.message).toContain('["email"]');
    // A claim the credential does not have at all.
    await rejects(
      { employee: [await present(await issue())] },
      employeeQuery([['birthdate']]),
      'missing_claims',
    );
  });

  it('whose status cannot be established (fail closed)', async () => {
    const vp = await present(await issue({ idx: 7 }));
    const query = employeeQuery();
    const elsewhere = statusLists();
    elsewhere.set(0, StatusType.VALID, `${ISSUER}/status-lists/other`);
    const cases: Partial<VerificationContext>[] = [
      { fetchStatusList: async () => Promise.reject(new Error('ECONNREFUSED')) },
      { fetchStatusList: async () => 'not a token' },
      // Signed by a key the issuer does not publish.
      {
        fetchStatusList: statusLists(memorySigner({ issuer: keyPair('x'), status: keyPair('status-1') }))
          .fetch,
      },
      // A valid token of another list.
      { fetchStatusList: () => elsewhere.fetch(`${ISSUER}/status-lists/other`) },
      // Expired: fetched long after it was signed.
      { now: new Date(NOW.getTime() + 2 * 86_400_000), maxKbAgeSeconds: 3 * 86_400 },
    ];
    for (const overrides of cases)
      await rejects({ employee: [vp] }, query, 'status_unavailable', context(overrides));
    // An index beyond the list, and an unregistered status value.
    await rejects({ employee: [await present(await issue({ idx: 5000 }))] }, query, 'status_unavailable');
    const lists = statusLists();
    lists.set(7, 3);
    await rejects({ employee: [vp] }, query, 'status_unavailable', context({ fetchStatusList: lists.fetch }));
  });

  it('when a required credential query is not answered, or an unknown one is', async () => {
    const vp = await present(await issue());
    await rejects({}, employeeQuery(), 'missing_credential');
    await rejects({ employee: [vp], other: [vp] }, employeeQuery(), 'malformed');
  });

  it('with two presentations where multiple is not true', async () => {
    const vp = await present(await issue());
    await rejects({ employee: [vp, vp] }, employeeQuery(), 'malformed');
  });

  it('whose issuer made a claim disclosable that must stay in the clear', async () => {
    // @sd-jwt refuses to issue such a credential, so it is made by hand.
    const exp = encodeDisclosure(['c2FsdA', 'exp', nowSeconds + 60]);
    const disclosedExp = await resign(await issue(), (_, payload) => {
      delete payload.exp;
      (payload._sd as string[]).push(sha256(exp));
    });
    await rejects({ employee: [await present(`${disclosedExp}${exp}~`)] }, employeeQuery(), 'malformed');
    const nestedCnf = await resign(await issue(), (_, payload) => {
      payload.cnf = { _sd: [sha256(encodeDisclosure(['c2FsdA', 'jwk', holder.publicJwk]))] };
    });
    await rejects({ employee: [await present(nestedCnf)] }, employeeQuery(), 'malformed');
  });

  it('in a request with the wrong nonce even when another presentation is fine', async () => {
    const query: DcqlQuery = {
      credentials: [
        { id: 'a', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } },
        { id: 'b', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } },
      ],
    };
    const good = await present(await issue());
    const bad = await present(await issue(), all, { nonce: `${NONCE}x` });
    const error = await rejects({ a: [good], b: [bad] }, query, 'wrong_nonce');
    expect(error).toMatchObject({ queryId: 'b' });
  });
});
