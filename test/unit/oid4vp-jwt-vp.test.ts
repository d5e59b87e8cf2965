import type { KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  type DcqlQuery,
  type PresentationErrorCode,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import { StatusType } from '../../server/status-list/status-list-encoding.js';
import {
  CLIENT_ID,
  context,
  didJwk,
  holder,
  ISSUER,
  issue,
  issuerKey,
  keyPair,
  LIST_URI,
  NONCE,
  NOW,
  nowSeconds,
  present,
  signJwt,
  statusLists,
} from '../support/oid4vp-fixtures.js';

/** W3C VCs (`jwt_vc_json`, OID4VP 1.0 §B.1.3.1): a VP JWT holding a VC JWT. */

const HOLDER_DID = didJwk(holder.publicJwk);

const query = (overrides: Record<string, unknown> = {}): DcqlQuery => ({
  credentials: [
    {
      id: 'employee_vc',
      format: 'jwt_vc_json',
      meta: { type_values: [['EmployeeCredential']] },
      claims: [{ path: ['credentialSubject', 'email'] }, { path: ['credentialSubject', 'given_name'] }],
      ...overrides,
    },
  ],
});

interface VcOptions {
  payload?: Record<string, unknown>;
  vc?: Record<string, unknown>;
  key?: KeyObject;
  kid?: string;
}

function vcJwt(opts: VcOptions = {}) {
  return signJwt(
    { typ: 'JWT', kid: opts.kid ?? 'issuer-1' },
    {
      iss: ISSUER,
      sub: HOLDER_DID,
      nbf: nowSeconds - 86_400,
      iat: nowSeconds - 86_400,
      exp: nowSeconds + 86_400 * 365,
      jti: 'urn:uuid:3978344f-8596-4c3a-a978-8fcaba3903c5',
      status: { status_list: { idx: 3, uri: LIST_URI } },
      vc: {
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiableCredential', 'EmployeeCredential'],
        credentialSubject: { id: HOLDER_DID, given_name: 'Ana', email: 'ana@acme.test' },
        ...opts.vc,
      },
      ...opts.payload,
    },
    opts.key ?? issuerKey.privateKey,
  );
}

interface VpOptions {
  credentials?: unknown;
  payload?: Record<string, unknown>;
  header?: Record<string, unknown>;
  key?: KeyObject;
}

async function vpJwt(opts: VpOptions = {}) {
  return signJwt(
    { typ: 'JWT', kid: `${HOLDER_DID}#0`, ...opts.header },
    {
      iss: HOLDER_DID,
      aud: CLIENT_ID,
      nonce: NONCE,
      iat: nowSeconds - 2,
      jti: 'urn:uuid:1',
      vp: {
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiablePresentation'],
        verifiableCredential: opts.credentials ?? [await vcJwt()],
      },
      ...opts.payload,
    },
    opts.key ?? holder.privateKey,
  );
}

async function rejects(vp: unknown, code: PresentationErrorCode, q = query(), ctx = context()) {
  const error = await verifyVpToken({ employee_vc: [vp] }, q, ctx).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'verification should fail').toMatchObject({ name: 'PresentationError', code });
}

describe('verifyVpToken with a JWT VP of a jwt_vc_json credential', () => {
  it('accepts a VP signed by the credential subject (did:jwk)', async () => {
    const result = await verifyVpToken({ employee_vc: [await vpJwt()] }, query(), context());
    expect(result.credentials).toEqual([
      expect.objectContaining({
        queryId: 'employee_vc',
        format: 'jwt_vc_json',
        issuer: ISSUER,
        type: ['VerifiableCredential', 'EmployeeCredential'],
        holderKey: holder.publicJwk,
        claims: expect.objectContaining({
          credentialSubject: { id: HOLDER_DID, given_name: 'Ana', email: 'ana@acme.test' },
        }),
      }),
    ]);
  });

  it('accepts a VP with a header jwk bound through cnf.jwk, and expanded type IRIs', async () => {
    const cnfBound = await vcJwt({ payload: { sub: undefined, cnf: { jwk: holder.publicJwk } } });
    const vp = await vpJwt({
      credentials: [cnfBound],
      header: { kid: undefined, jwk: holder.publicJwk },
      payload: { iss: undefined },
    });
    const expanded = query({
      meta: {
        type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential', 'EmployeeCredential']],
      },
    });
    const result = await verifyVpToken({ employee_vc: [vp] }, expanded, context());
    expect(result.credentials[0]?.holderKey).toEqual(holder.publicJwk);
  });

  it('accepts a bare credential when holder binding is not required, and only then', async () => {
    const credential = await vcJwt();
    const result = await verifyVpToken(
      { employee_vc: [credential] },
      query({ require_cryptographic_holder_binding: false }),
      context(),
    );
    expect(result.credentials[0]?.holderKey).toBeUndefined();
    await rejects(credential, 'missing_key_binding');
  });

  it('refuses a VP for another nonce or audience', async () => {
    await rejects(await vpJwt({ payload: { nonce: 'other' } }), 'wrong_nonce');
    await rejects(await vpJwt({ payload: { aud: 'verifier.example' } }), 'wrong_audience');
  });

  it('refuses a stale VP, or one without iat', async () => {
    await rejects(await vpJwt({ payload: { iat: nowSeconds - 1000 } }), 'stale_key_binding');
    await rejects(await vpJwt({ payload: { iat: undefined } }), 'stale_key_binding');
    await rejects(await vpJwt({ payload: { exp: nowSeconds - 3600 } }), 'stale_key_binding');
  });

  it('refuses a VP signed by someone other than the credential subject', async () => {
    const thief = keyPair();
    const thiefDid = didJwk(thief.publicJwk);
    const vp = await vpJwt({
      key: thief.privateKey,
      header: { kid: `${thiefDid}#0` },
      payload: { iss: thiefDid },
    });
    await rejects(vp, 'invalid_signature');
    // Naming the holder's did:jwk does not help: the signature is checked against it.
    await rejects(await vpJwt({ key: thief.privateKey }), 'invalid_signature');
    // Nor does a header jwk of the thief next to the holder's DID.
    await rejects(
      await vpJwt({ key: thief.privateKey, header: { jwk: thief.publicJwk } }),
      'invalid_signature',
    );
  });

  it('refuses a VP that names no key', async () => {
    await rejects(
      await vpJwt({ header: { kid: 'key-1' }, payload: { iss: 'https://holder.example' } }),
      'missing_key_binding',
    );
  });

  it('refuses a credential of an untrusted issuer, or not signed by its key', async () => {
    const rogue = keyPair('issuer-1');
    await rejects(
      await vpJwt({ credentials: [await vcJwt({ key: rogue.privateKey })] }),
      'invalid_signature',
    );
    const untrusted = await vcJwt({ payload: { iss: 'https://rogue.example' } });
    await rejects(await vpJwt({ credentials: [untrusted] }), 'untrusted_issuer');
    const mismatch = await vcJwt({ vc: { issuer: 'https://rogue.example' } });
    await rejects(await vpJwt({ credentials: [mismatch] }), 'malformed');
  });

  it('refuses an expired credential, or one not valid yet', async () => {
    await rejects(
      await vpJwt({ credentials: [await vcJwt({ payload: { exp: nowSeconds - 120 } })] }),
      'expired',
    );
    const vcExpired = await vcJwt({
      vc: { expirationDate: new Date(NOW.getTime() - 120_000).toISOString() },
    });
    await rejects(await vpJwt({ credentials: [vcExpired] }), 'expired');
    await rejects(
      await vpJwt({ credentials: [await vcJwt({ payload: { nbf: nowSeconds + 3600 } })] }),
      'not_yet_valid',
    );
    const validFrom = await vcJwt({ vc: { validFrom: new Date(NOW.getTime() + 3_600_000).toISOString() } });
    await rejects(await vpJwt({ credentials: [validFrom] }), 'not_yet_valid');
  });

  it('refuses a credential of another type', async () => {
    await rejects(await vpJwt(), 'wrong_type', query({ meta: { type_values: [['VisitorCredential']] } }));
  });

  it('refuses a credential without a requested claim', async () => {
    const vc = await vcJwt({ vc: { credentialSubject: { id: HOLDER_DID, given_name: 'Ana' } } });
    await rejects(await vpJwt({ credentials: [vc] }), 'missing_claims');
  });

  it('refuses a revoked credential, and one with an unsupported credentialStatus', async () => {
    const lists = statusLists();
    lists.set(3, StatusType.INVALID);
    await rejects(await vpJwt(), 'revoked', query(), context({ fetchStatusList: lists.fetch }));
    const bitstring = await vcJwt({
      payload: { status: undefined },
      vc: { credentialStatus: { type: 'BitstringStatusListEntry', statusListIndex: '3' } },
    });
    await rejects(await vpJwt({ credentials: [bitstring] }), 'status_unavailable');
  });

  it('refuses a VP holding no credential or several', async () => {
    await rejects(await vpJwt({ credentials: [] }), 'malformed');
    await rejects(await vpJwt({ credentials: [await vcJwt(), await vcJwt()] }), 'malformed');
    await rejects(await vpJwt({ credentials: [{ not: 'a jwt' }] }), 'malformed');
  });

  it('refuses unsigned and MAC-protected VPs', async () => {
    const vp = await vpJwt();
    const [, payload] = vp.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    await rejects(none, 'invalid_signature');
    const hs = `${Buffer.from(JSON.stringify({ alg: 'HS256', kid: `${HOLDER_DID}#0` })).toString('base64url')}.${payload}.AAAA`;
    await rejects(hs, 'invalid_signature');
  });

  it('refuses an SD-JWT under a jwt_vc_json query, and a VP under a dc+sd-jwt query', async () => {
    await rejects(await present(await issue()), 'malformed');
    const sdQuery: DcqlQuery = {
      credentials: [{ id: 'employee_vc', format: 'dc+sd-jwt', meta: { vct_values: ['x'] } }],
    };
    await rejects(await vpJwt(), 'malformed', sdQuery);
  });

  it('refuses a credential whose did:jwk is not a public key', async () => {
    const privateJwk = { ...holder.publicJwk, d: 'AAAA' } as JWK;
    const vp = await vpJwt({ header: { kid: `${didJwk(privateJwk)}#0` }, payload: { iss: undefined } });
    await rejects(vp, 'malformed');
  });
});
