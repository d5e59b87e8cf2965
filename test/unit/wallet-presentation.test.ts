// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import { createHash, generateKeyPairSync, sign, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  compactDecrypt,
  compactVerify,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';
import { describe, expect, it } from 'vitest';
import {
  type DcqlCredentialQuery,
  fetchRequestObject,
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  PresentationDeclinedError,
  type PresentationMisbehaviour,
  type StoredCredential,
  selectForDcql,
  UnanswerableQueryError,
} from '../../clients/wallet/src/index.js';
import { LEAR_CREDENTIAL_EMPLOYEE } from '../../server/credential-configurations/lear-credential-employee.js';
import { issueSdJwtVc } from '../../server/formats/sd-jwt-vc/issue-sd-jwt-vc.js';
import type { Signer } from '../../server/keys/signer.js';
import { employeePayload } from '../support/fixtures.js';
import { sdJwtCheckedBy } from '../support/sd-jwt-checker.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * Both holders present to a verifier that lives in this file: a self-signed certificate whose hash
 * is the x509_hash client_id, a Request Object signed with its key, and a fetch that serves the
 * request_uri and records what is POSTed to the response_uri. No server is started.
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const REQUEST_URI = 'https://verifier.test/oid4vp/auth-request/s1';
const RESPONSE_URI = 'https://verifier.test/oid4vp/response/s1';
const REDIRECT = 'https://integrator.test/cb?code=c1&state=st-1';
const VCT = 'https://issuer.test/credential-types/LEARCredentialEmployee';
const NONCE = 'n-0S6_WzA2Mj';
const EMPLOYEE_QUERY: DcqlCredentialQuery = {
  id: 'employee',
  format: 'dc+sd-jwt',
  meta: { vct_values: [VCT] },
  claims: [{ path: ['mandatee', 'firstName'] }, { path: ['power', null, 'function'] }],
};
const DCQL = { credentials: [EMPLOYEE_QUERY] };

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
async function newVerifierIdentity() {
  const keys = await webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Test Verifier',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3_600_000),
    signingAlgorithm: ecdsa,
    keys: keys as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'],
  });
  const der = Buffer.from(cert.rawData);
  const clientId = `x509_hash:${createHash('sha256').update(der).digest('base64url')}`;
  return { privateKey: keys.privateKey, x5c: [der.toString('base64')], clientId };
}
const verifierIdentity = await newVerifierIdentity();
const encryptionKeys = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
const encryptionJwk = {
  ...(await exportJWK(encryptionKeys.publicKey)),
  kid: 'enc-1',
  use: 'enc',
  alg: 'ECDH-ES',
};

/** A Request Object as the contract describes it; `claims` and `header` override members. */
async function requestObject(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  const metadata = {
    vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
    jwks: { keys: [encryptionJwk] },
    encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
  };
  const payload = {
    client_id: verifierIdentity.clientId,
    response_type: 'vp_token',
    response_mode: 'direct_post',
  };
  return new SignJWT({
    ...payload,
    ...{
      response_uri: RESPONSE_URI,
      nonce: NONCE,
      state: 'st-1',
      dcql_query: DCQL,
      client_metadata: metadata,
    },
    ...{ aud: 'https://self-issued.me/v2', iat: now, exp: now + 300, ...claims },
  })
    .setProtectedHeader({ typ: 'oauth-authz-req+jwt', alg: 'ES256', x5c: verifierIdentity.x5c, ...header })
    .sign(
      header.signWith ? (header.signWith as Parameters<SignJWT['sign']>[0]) : verifierIdentity.privateKey,
    );
}

/** The verifier's two endpoints in memory; `posted` holds every form body received. */
function verifierFetch(requestJwt: string) {
  const posted: string[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url === REQUEST_URI)
      return new Response(requestJwt, { headers: { 'content-type': 'application/oauth-authz-req+jwt' } });
    if (url === RESPONSE_URI && init?.method === 'POST') {
      posted.push(String(init.body));
      return Response.json({ redirect_uri: REDIRECT });
    }
    return new Response('not found', { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, posted };
}
const LINK = `openid4vp://?client_id=${encodeURIComponent(verifierIdentity.clientId)}&request_uri=${encodeURIComponent(REQUEST_URI)}`;

// The issuer: an in-memory key without certificate; issueSdJwtVc needs `activeKid`, `sign` and
// `certificateChain` of a Signer.
const issuerKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const issuerSigner: Pick<Signer, 'activeKid' | 'sign' | 'certificateChain'> = {
  activeKid: async () => 'issuer-1',
  certificateChain: async () => [],
  sign: async (_purpose, data) => ({
    kid: 'issuer-1',
    signature: new Uint8Array(
      sign('sha256', data, { key: issuerKeys.privateKey, dsaEncoding: 'ieee-p1363' }),
    ),
  }),
};
const issueTo = (holderJwk: JWK) =>
  issueSdJwtVc(issuerSigner as Signer, {
    issuer: 'https://issuer.test',
    vct: VCT,
    claims: employeePayload(),
    selectivelyDisclosable: LEAR_CREDENTIAL_EMPLOYEE.selectivelyDisclosable,
    issuedAt: new Date(),
    expiresAt: new Date(Date.now() + 86_400_000),
    status: { idx: 7, uri: 'https://issuer.test/status-lists/1' },
    holderJwk: holderJwk as Record<string, unknown>,
  });

async function ourWallet(fetchImpl: typeof fetch) {
  const crypto = inMemoryHolderCrypto();
  const store = inMemoryCredentialStore();
  const key = await crypto.createKey();
  const compact = await issueTo(key.publicJwk);
  const stored: StoredCredential = {
    ...{ id: 'c1', compact, issuer: 'https://issuer.test', vct: VCT, claims: {} },
    ...{ holderKeyId: key.id, receivedAt: new Date() },
  };
  await store.save(stored);
  return {
    wallet: new HolderWallet({ crypto, store, http: { fetch: fetchImpl } }),
    holderJwk: key.publicJwk,
    stored,
  };
}

/**
 * Checks a presentation with @sd-jwt/core, not with wallet code: the issuer signature, every digest,
 * the KB-JWT signature with the holder key, its nonce and sd_hash; then what it says.
 */
async function checkPresentation(presentation: string, holderJwk: JWK, nonce = NONCE) {
  const holderKey = await importJWK(holderJwk, 'ES256');
  const sdJwt = sdJwtCheckedBy(issuerKeys.publicKey, (data, sig) =>
    compactVerify(`${data}.${sig}`, holderKey).then(() => true),
  );
  const { payload, kb } = await sdJwt.verify(presentation, { keyBindingNonce: nonce });
  const presented = presentation.slice(0, presentation.lastIndexOf('~') + 1);
  expect(kb?.header).toEqual({ typ: 'kb+jwt', alg: 'ES256' });
  expect(kb?.payload).toMatchObject({ aud: verifierIdentity.clientId, nonce });
  expect(kb?.payload.sd_hash).toBe(createHash('sha256').update(presented).digest('base64url'));
  expect(Math.abs((kb?.payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(60);
  // Exactly the requested claims: the first name and the (whole) power element, nothing else.
  expect(presentation.split('~').slice(1, -1)).toHaveLength(2);
  const claims = payload as ReturnType<typeof employeePayload>;
  expect(claims.mandatee).toEqual({ firstName: 'Ana' });
  expect(claims.power).toEqual(employeePayload().power);
  expect(claims.mandator).toEqual(employeePayload().mandator);
}

const formOf = (body: string) => Object.fromEntries(new URLSearchParams(body));
const decrypt = async (jwe: string) => {
  const { plaintext, protectedHeader } = await compactDecrypt(jwe, encryptionKeys.privateKey);
  return { header: protectedHeader, payload: JSON.parse(new TextDecoder().decode(plaintext)) };
};

describe('our wallet presents over OID4VP (clients/wallet)', () => {
  it('answers direct_post with exactly the requested disclosures and a KB-JWT bound to nonce and client_id', async () => {
    const verifier = verifierFetch(await requestObject());
    const { wallet, holderJwk } = await ourWallet(verifier.fetchImpl);
    const result = await wallet.present(LINK);
    expect(result.redirectUri).toBe(REDIRECT);
    expect(verifier.posted).toEqual([result.body]);
    const form = formOf(result.body);
    expect(form.state).toBe('st-1');
    const vpToken = JSON.parse(form.vp_token ?? '');
    expect(Object.keys(vpToken)).toEqual(['employee']);
    expect(vpToken.employee).toHaveLength(1);
    await checkPresentation(vpToken.employee[0], holderJwk);
  });

  it('encrypts direct_post.jwt to the verifier key: the JWE decrypts to { vp_token, state }', async () => {
    const verifier = verifierFetch(await requestObject({ response_mode: 'direct_post.jwt' }));
    const { wallet, holderJwk } = await ourWallet(verifier.fetchImpl);
    const result = await wallet.present(LINK);
    const form = formOf(result.body);
    expect(Object.keys(form)).toEqual(['response']);
    const { header, payload } = await decrypt(form.response ?? '');
    expect(header).toMatchObject({ alg: 'ECDH-ES', enc: 'A128GCM', kid: 'enc-1' });
    expect(Object.keys(payload).sort()).toEqual(['state', 'vp_token']);
    expect(payload.state).toBe('st-1');
    await checkPresentation(payload.vp_token.employee[0], holderJwk);
  });

  it('refuses a request whose x509_hash, signature, typ or prefix is wrong, and posts nothing', async () => {
    const other = await newVerifierIdentity();
    const otherLink = LINK.replace(
      encodeURIComponent(verifierIdentity.clientId),
      encodeURIComponent(other.clientId),
    );
    const cases: [string, Promise<string>, RegExp][] = [
      [otherLink, requestObject({ client_id: other.clientId }), /x509_hash: the leaf certificate hashes to/],
      [LINK, requestObject({}, { signWith: other.privateKey }), /signature does not verify/],
      [LINK, requestObject({}, { typ: 'JWT' }), /typ is JWT/],
      [
        LINK,
        requestObject({ client_id: 'redirect_uri:https://verifier.test/cb' }),
        /prefix redirect_uri is not supported/,
      ],
    ];
    for (const [link, jwt, error] of cases) {
      const verifier = verifierFetch(await jwt);
      const { wallet } = await ourWallet(verifier.fetchImpl);
      await expect(wallet.present(link)).rejects.toThrow(error);
      expect(verifier.posted).toEqual([]);
    }
  });

  it('misbehaves on request: nonce, audience, iat, tampered disclosure, no KB-JWT, replayed body', async () => {
    const verifier = verifierFetch(await requestObject());
    const { wallet, stored } = await ourWallet(verifier.fetchImpl);
    const presentWith = async (misbehave: PresentationMisbehaviour) =>
      JSON.parse(formOf((await wallet.present(LINK, { misbehave })).body).vp_token ?? '')
        .employee[0] as string;
    const kbOf = (p: string) =>
      JSON.parse(Buffer.from(p.split('~').at(-1)?.split('.')[1] ?? '', 'base64url').toString());
    expect(kbOf(await presentWith({ nonce: 'other' })).nonce).toBe('other');
    expect(kbOf(await presentWith({ audience: 'x509_hash:other' })).aud).toBe('x509_hash:other');
    expect(kbOf(await presentWith({ issuedAt: 1000 })).iat).toBe(1000);
    // The altered disclosure's digest is in no _sd: a verifier following RFC 9901 §7.1 must reject it.
    const [, altered] = (await presentWith({ tamperDisclosure: true })).split('~');
    expect(JSON.parse(Buffer.from(altered ?? '', 'base64url').toString()).at(-1)).toBe('tampered');
    expect(stored.compact.split('~')).not.toContain(altered);
    expect((await presentWith({ skipKeyBinding: true })).endsWith('~')).toBe(true);
    const first = await wallet.present(LINK);
    const replay = await wallet.present(LINK, { misbehave: { replayBody: first.body } });
    expect(replay.body).toBe(first.body);
    expect(verifier.posted.slice(-2)).toEqual([first.body, first.body]);
  });

  it('follows claim_sets, credential_sets and values, and declines with access_denied when nothing answers', async () => {
    const { stored } = await ourWallet(verifierFetch('').fetchImpl);
    const query = (extra: Record<string, unknown>, id = 'employee') =>
      ({ ...EMPLOYEE_QUERY, id, ...extra }) as DcqlCredentialQuery;
    const byClaimSets = query({
      claims: [
        { id: 'email', path: ['mandatee', 'email'], values: ['someone@else.test'] },
        { id: 'last', path: ['mandatee', 'lastName'] },
      ],
      claim_sets: [['email'], ['last']],
    });
    const match = selectForDcql({ credentials: [byClaimSets] }, [stored]).employee;
    expect(match?.disclosures.map((d) => JSON.parse(Buffer.from(d, 'base64url').toString())[1])).toEqual([
      'lastName',
    ]);
    const optionalMissing = {
      credentials: [query({}), query({ meta: { vct_values: ['urn:other'] } }, 'other')],
      credential_sets: [{ options: [['employee']] }, { options: [['other']], required: false }],
    };
    expect(Object.keys(selectForDcql(optionalMissing, [stored]))).toEqual(['employee']);
    expect(() =>
      selectForDcql({ credentials: [query({ meta: { vct_values: ['urn:x'] } })] }, [stored]),
    ).toThrow(UnanswerableQueryError);

    const verifier = verifierFetch(
      await requestObject({ dcql_query: { credentials: [query({ meta: { vct_values: ['urn:x'] } })] } }),
    );
    const { wallet } = await ourWallet(verifier.fetchImpl);
    await expect(wallet.present(LINK)).rejects.toBeInstanceOf(PresentationDeclinedError);
    expect(formOf(verifier.posted[0] ?? '')).toMatchObject({ error: 'access_denied', state: 'st-1' });
  });
});

describe('a third-party holder presents the same way (@openid4vc/openid4vp, @sd-jwt)', () => {
  for (const mode of ['direct_post', 'direct_post.jwt'] as const)
    it(`answers ${mode} with the requested disclosures and a valid KB-JWT`, async () => {
      const verifier = verifierFetch(await requestObject({ response_mode: mode }));
      const holder = await ThirdPartyHolder.create(verifier.fetchImpl);
      const result = await holder.present(LINK, [await issueTo(holder.holderJwk)]);
      expect(result).toMatchObject({ status: 200, body: { redirect_uri: REDIRECT } });
      const form = formOf(verifier.posted[0] ?? '');
      const sent =
        mode === 'direct_post'
          ? { ...form, vp_token: JSON.parse(form.vp_token ?? '') }
          : (await decrypt(form.response ?? '')).payload;
      expect(sent.state).toBe('st-1');
      await checkPresentation(sent.vp_token.employee[0], holder.holderJwk);
    });

  it('refuses a request whose x509_hash does not match the x5c leaf', async () => {
    const other = await newVerifierIdentity();
    const verifier = verifierFetch(await requestObject({ client_id: other.clientId }));
    const holder = await ThirdPartyHolder.create(verifier.fetchImpl);
    const link = LINK.replace(
      encodeURIComponent(verifierIdentity.clientId),
      encodeURIComponent(other.clientId),
    );
    await expect(holder.present(link, [await issueTo(holder.holderJwk)])).rejects.toThrow(
      /hash of the leaf x5c certificate/,
    );
    expect(verifier.posted).toEqual([]);
  });
});

describe('fetchRequestObject', () => {
  it('returns the verified request, and with trust anchors accepts only chains ending in one', async () => {
    const { fetchImpl } = verifierFetch(await requestObject({ response_mode: 'direct_post.jwt' }));
    const request = await fetchRequestObject(LINK, { fetch: fetchImpl, trustAnchors: verifierIdentity.x5c });
    expect(request).toMatchObject({ client_id: verifierIdentity.clientId, nonce: NONCE, state: 'st-1' });
    const other = await newVerifierIdentity();
    await expect(fetchRequestObject(LINK, { fetch: fetchImpl, trustAnchors: other.x5c })).rejects.toThrow(
      /does not end in a trusted certificate/,
    );
  });
});
