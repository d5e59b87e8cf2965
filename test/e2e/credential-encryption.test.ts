import { compactDecrypt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  verifySdJwtVc,
} from '../../clients/wallet/src/index.js';
import {
  encryptTo,
  expectRefused,
  redeemedOffer,
  walletKey,
} from '../support/encrypted-credential-request.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * OID4VCI 1.0 section 10: credential requests encrypted to the issuer's key, responses encrypted to
 * the wallet's, by our wallet and by hand with jose; the refusals are invalid_encryption_parameters
 * and spend nothing. @openid4vc/openid4vci 0.4.6 parses the metadata but cannot encrypt requests
 * or decrypt responses, so no third-party wallet takes part here; the 0.5.0 alpha decrypts
 * responses, in third-party-encrypted-issuance.test.ts.
 */
const http = { allowHttp: true };
let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(async () => {
  await f?.stop();
});

describe('credential request and response encryption', () => {
  it('advertises ECDH-ES P-256 request and response encryption in the issuer metadata', async () => {
    const res = await fetch(`${f.t.baseUrl}/.well-known/openid-credential-issuer`);
    const metadata = (await res.json()) as {
      credential_request_encryption: { jwks: { keys: JWK[] } };
      credential_response_encryption: unknown;
    };
    expect(metadata.credential_response_encryption).toEqual({
      alg_values_supported: ['ECDH-ES'],
      enc_values_supported: ['A128GCM', 'A256GCM'],
      encryption_required: false,
    });
    expect(metadata.credential_request_encryption).toEqual({
      jwks: {
        keys: [
          {
            kty: 'EC',
            crv: 'P-256',
            x: expect.any(String),
            y: expect.any(String),
            kid: expect.any(String),
            use: 'enc',
            alg: 'ECDH-ES',
          },
        ],
      },
      enc_values_supported: ['A128GCM', 'A256GCM'],
      encryption_required: false,
    });
    expect(metadata.credential_request_encryption.jwks.keys[0]).not.toHaveProperty('d');
  });

  it('our wallet encrypts its request and decrypts the response', async () => {
    const { offerUri, txCode, offerId } = await mailedOffer(f.integrator, f.smtp, 'wallet-enc@example.test');
    const seen: { request?: string; response?: string } = {};
    // Watches the wire: the credential request and response travel as application/jwt.
    const watching: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/oid4vci/v1/credential')) {
        seen.request = new Headers(init?.headers).get('content-type') ?? undefined;
        seen.response = res.headers.get('content-type') ?? undefined;
      }
      return res;
    };
    const wallet = new HolderWallet({
      crypto: inMemoryHolderCrypto(),
      store: inMemoryCredentialStore(),
      http: { ...http, fetch: watching },
    });
    const [stored] = await wallet.receive(offerUri, { txCode });
    expect(stored?.claims).toMatchObject({ iss: f.t.baseUrl });
    expect(seen.request).toBe('application/jwt');
    expect(seen.response).toMatch(/^application\/jwt/);
    const issuance = await f.integrator.getIssuance({ params: { id: offerId } });
    expect(issuance.body).toMatchObject({ status: 'issued' });
  });

  it('answers a hand-made encrypted request (jose) with a JWE to the wallet key, same status', async () => {
    const { issuer, issuerKey, request, post } = await redeemedOffer(f, 'by-hand@example.test');
    const mine = await walletKey();
    const jwe = await encryptTo(issuerKey, {
      ...request,
      credential_response_encryption: { jwk: mine.jwk, enc: 'A256GCM' },
    });
    const res = await post(jwe, 'application/jwt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwt/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.text();
    expect(decodeProtectedHeader(body)).toMatchObject({ alg: 'ECDH-ES', enc: 'A256GCM', kid: 'wallet-1' });
    const { plaintext } = await compactDecrypt(body, mine.privateKey);
    const response = JSON.parse(new TextDecoder().decode(plaintext));
    expect(response).toMatchObject({ credentials: [{ credential: expect.any(String) }] });
    const verified = await verifySdJwtVc(response.credentials[0].credential, {
      ...http,
      expectedIssuer: issuer.credential_issuer,
    });
    expect(verified.claims.iss).toBe(issuer.credential_issuer);
  });

  it('an encrypted request may ask for a plain response', async () => {
    const { issuerKey, request, post } = await redeemedOffer(f, 'plain-answer@example.test');
    const res = await post(await encryptTo(issuerKey, request, 'A256GCM'), 'application/jwt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ credentials: [{ credential: expect.any(String) }] });
  });

  it('refuses bad encryption parameters with invalid_encryption_parameters, spending nothing', async () => {
    const { offerId, issuerKey, request, post } = await redeemedOffer(f, 'refusals@example.test');
    const mine = await walletKey();
    const asking = (parameters: unknown) => ({ ...request, credential_response_encryption: parameters });
    const p384 = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-384' })).publicKey);
    const rsa = await exportJWK((await generateKeyPair('RSA-OAEP-256', { extractable: true })).publicKey);
    const privateJwk = await exportJWK(
      (await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true })).privateKey,
    );

    // Section 8.2: response encryption asked for in a plain request could be an attacker's key.
    await expectRefused(
      await post(JSON.stringify(asking({ jwk: mine.jwk, enc: 'A128GCM' })), 'application/json'),
    );
    for (const parameters of [
      { jwk: { ...p384, alg: 'ECDH-ES' }, enc: 'A128GCM' },
      { jwk: rsa, enc: 'A128GCM' },
      { jwk: privateJwk, enc: 'A128GCM' },
      { jwk: { ...mine.jwk, alg: 'ECDH-ES+A128KW' }, enc: 'A128GCM' },
      { jwk: mine.jwk, enc: 'A128CBC-HS256' },
      { jwk: mine.jwk, enc: 'A128GCM', zip: 'DEF' },
      { enc: 'A128GCM' },
    ])
      await expectRefused(await post(await encryptTo(issuerKey, asking(parameters)), 'application/jwt'));
    // Not a JWE; a JWE to another key; a JWE with an enc the issuer does not take.
    await expectRefused(await post('not.a.jwe.at.all', 'application/jwt'));
    const stranger = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256' })).publicKey);
    await expectRefused(
      await post(await encryptTo({ ...stranger, kid: issuerKey.kid as string }, request), 'application/jwt'),
    );
    await expectRefused(await post(await encryptTo(issuerKey, request, 'A192GCM'), 'application/jwt'));

    // Nothing was issued and the c_nonce of the proof is unspent: the same request now works.
    expect((await f.integrator.getIssuance({ params: { id: offerId } })).body).toMatchObject({
      status: expect.not.stringMatching(/issued/),
    });
    const jwe = await encryptTo(issuerKey, asking({ jwk: mine.jwk, enc: 'A128GCM' }));
    const res = await post(jwe, 'application/jwt');
    expect(res.status).toBe(200);
    const { plaintext } = await compactDecrypt(await res.text(), mine.privateKey);
    expect(JSON.parse(new TextDecoder().decode(plaintext)).credentials).toHaveLength(1);
  });

  it('a tenant with encryption_required refuses plain requests and takes encrypted ones', async () => {
    const set = await f.t.admin.updateTenant({
      params: { id: f.tenant.id },
      body: { encryption_required: true },
    });
    expect(set).toMatchObject({ status: 200, body: { encryption_required: true } });
    try {
      const { issuerKey, request, post } = await redeemedOffer(f, 'required@example.test');
      await expectRefused(await post(JSON.stringify(request), 'application/json'));
      // An encrypted request that asks for a plain response is refused too: both are required.
      await expectRefused(await post(await encryptTo(issuerKey, request), 'application/jwt'));
      const mine = await walletKey();
      const jwe = await encryptTo(issuerKey, {
        ...request,
        credential_response_encryption: { jwk: mine.jwk, enc: 'A128GCM' },
      });
      const res = await post(jwe, 'application/jwt');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/jwt/);
    } finally {
      await f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: { encryption_required: false } });
    }
  });
});
