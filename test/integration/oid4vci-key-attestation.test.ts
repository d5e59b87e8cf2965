import { calculateJwkThumbprint, decodeJwt, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CredentialOfferJson, employeePayload } from '../support/fixtures.js';
import { holderKey } from '../support/proof-jwt.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { makeWalletProvider, walletProviderWithAnchorsFile } from '../support/wallet-provider.js';

/**
 * Key attestations at the credential endpoint (OID4VCI 1.0 appendix D, HAIP "Key Attestation"), over
 * raw HTTP with attestations a test wallet provider signs: the `key_attestation` header of a jwt
 * proof and the `attestation` proof type, a configuration that requires them at given ISO 18045
 * levels, and each refusal with its code, issuing nothing and spending no c_nonce.
 */
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let removeAnchors: () => Promise<void>;
let f: TenantFixture;
let issuer: string;
let n = 0;

const REQUIRED = {
  key_storage: ['iso_18045_high', 'iso_18045_moderate'],
  user_authentication: ['iso_18045_high'],
};
const STRONG = { keyStorage: ['iso_18045_moderate'], userAuthentication: ['iso_18045_high'] };

beforeAll(async () => {
  const made = await walletProviderWithAnchorsFile();
  ({ provider, remove: removeAnchors } = made);
  f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: made.anchors, BATCH_SIZE: '3' });
  issuer = f.t.service.context.config.issuerUrl;
  const put = await f.t.admin.putCredentialConfiguration({
    params: { configurationId: 'SecureBadge' },
    body: {
      payload_schema: { type: 'object', required: ['holder'], properties: { holder: { type: 'string' } } },
      validity_seconds: 3600,
      display: [{ locale: 'en', name: 'Secure badge' }],
      key_attestations_required: REQUIRED,
    },
  });
  if (put.status !== 200) throw new Error(`configuration: ${put.status}`);
});
afterAll(async () => {
  await f?.stop();
  await removeAnchors();
});

const post = (path: string, body: unknown, accessToken?: string) =>
  fetch(`${f.t.baseUrl}/oid4vci/v1/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    body: JSON.stringify(body),
  });

const nonce = async () => ((await (await post('nonce', undefined)).json()) as { c_nonce: string }).c_nonce;

/** An offer of `configurationId` redeemed up to the access token, its tx_code read from the mail. */
async function redeemedOffer(configurationId = 'SecureBadge') {
  const email = `attested-keys-${++n}@example.test`;
  const created = await f.integrator.createIssuance({
    body: {
      credential_configuration_id: configurationId,
      payload: configurationId === 'SecureBadge' ? { holder: email } : employeePayload(),
      delivery: 'ui',
      email,
    },
  });
  if (created.status !== 201 || !created.body.credential_offer_uri)
    throw new Error(`offer: ${created.status}`);
  const mail = await f.smtp.waitForMail(
    (m) => m.to.includes(email) && /activation code is/.test(m.raw),
    30_000,
  );
  const txCode = /activation code is: (\d{6})/.exec(mail.raw)?.[1] ?? '';
  const location = decodeURIComponent(
    created.body.credential_offer_uri.split('credential_offer_uri=')[1] ?? '',
  );
  const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
  const tokenRes = await fetch(`${f.t.baseUrl}/oid4vci/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code':
        offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'] ?? '',
      tx_code: txCode,
    }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  return { offerId: created.body.offer_id, accessToken: access_token, configurationId };
}

const request = (o: { accessToken: string; configurationId: string }, proofs: Record<string, unknown>) =>
  post('credential', { credential_configuration_id: o.configurationId, proofs }, o.accessToken);

/** The thumbprints of the keys the issued credentials are bound to (`cnf.jwk`), in order. */
async function boundKeys(res: Response): Promise<string[]> {
  const body = (await res.json()) as { credentials: { credential: string }[] };
  return Promise.all(
    body.credentials.map((c) => {
      const payload = decodeJwt(c.credential.split('~')[0] as string) as { cnf: { jwk: JWK } };
      return calculateJwkThumbprint(payload.cnf.jwk);
    }),
  );
}
const thumbprints = (keys: { jwk: JWK }[]) => Promise.all(keys.map((k) => calculateJwkThumbprint(k.jwk)));

const state = async (offerId: string) => {
  const { rows } = await f.sql.query(
    `select i.status, (select count(*)::int from issued_credential c where c.issuance_id = i.id) as credentials
     from issuance i where i.id = $1`,
    [offerId],
  );
  return rows[0];
};

describe('key attestations: metadata and configuration', () => {
  it('advertises jwt and attestation proof types, with key_attestations_required where a configuration sets it', async () => {
    const metadata = (await (await fetch(`${f.t.baseUrl}/.well-known/openid-credential-issuer`)).json()) as {
      credential_configurations_supported: Record<string, { proof_types_supported: unknown }>;
    };
    const es256 = { proof_signing_alg_values_supported: ['ES256'] };
    expect(metadata.credential_configurations_supported.SecureBadge?.proof_types_supported).toEqual({
      jwt: { ...es256, key_attestations_required: REQUIRED },
      attestation: { ...es256, key_attestations_required: REQUIRED },
    });
    expect(
      metadata.credential_configurations_supported.LEARCredentialEmployee?.proof_types_supported,
    ).toEqual({
      jwt: es256,
      attestation: es256,
    });
    const read = await f.t.admin.getCredentialConfiguration({ params: { configurationId: 'SecureBadge' } });
    expect(read.body).toMatchObject({ key_attestations_required: REQUIRED });
  });

  it('refuses a level that is neither an ISO 18045 value nor an https URL (problem+json 400)', async () => {
    const res = await f.t.admin.putCredentialConfiguration({
      params: { configurationId: 'BadLevel' },
      body: {
        payload_schema: { type: 'object' },
        validity_seconds: 3600,
        display: [{ locale: 'en', name: 'Bad' }],
        key_attestations_required: { key_storage: ['iso_18045_extreme'] as never },
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('key_attestations_required.key_storage');
    const missing = await f.t.admin.getCredentialConfiguration({ params: { configurationId: 'BadLevel' } });
    expect(missing.status).toBe(404);
  });
});

describe('key attestations at the credential endpoint', () => {
  it('jwt proof with key_attestation: a credential for the proof key and for each other attested key', async () => {
    const o = await redeemedOffer();
    const [a, b] = [await holderKey(), await holderKey()];
    // Made in advance, without a nonce (HAIP "Interoperable Key Attestations"): the proof's own
    // c_nonce makes the request fresh.
    const attestation = await provider.attestKeys([a.jwk as JWK, b.jwk as JWK], STRONG);
    const proof = await a.proof({ aud: issuer, nonce: await nonce() }, { key_attestation: attestation });
    const res = await request(o, { jwt: [proof] });
    expect(res.status).toBe(200);
    expect(await boundKeys(res)).toEqual(await thumbprints([a, b]));
    expect(await state(o.offerId)).toEqual({ status: 'issued', credentials: 2 });
  });

  it('attestation proof type: one credential per attested key, up to the batch size, the c_nonce spent', async () => {
    const o = await redeemedOffer();
    const keys = [await holderKey(), await holderKey(), await holderKey(), await holderKey()];
    const c = await nonce();
    const attestation = await provider.attestKeys(
      keys.map((k) => k.jwk as JWK),
      { ...STRONG, nonce: c, exp: null },
    );
    const res = await request(o, { attestation: [attestation] });
    expect(res.status).toBe(200);
    expect(await boundKeys(res)).toEqual(await thumbprints(keys.slice(0, 3)));
    const again = await request(await redeemedOffer(), { attestation: [attestation] });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_nonce');
  });

  it('without a requirement, a jwt proof needs no key attestation, and one sent is still checked', async () => {
    const o = await redeemedOffer('LEARCredentialEmployee');
    const a = await holderKey();
    const c = await nonce();
    const stranger = await makeWalletProvider('Stranger');
    const bad = await request(o, {
      jwt: [
        await a.proof(
          { aud: issuer, nonce: c },
          { key_attestation: await stranger.attestKeys([a.jwk as JWK]) },
        ),
      ],
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid_proof');
    const res = await request(o, { jwt: [await a.proof({ aud: issuer, nonce: c })] });
    expect(res.status).toBe(200);
  });

  it('refuses each bad key attestation with its code, issuing nothing and keeping the c_nonce', async () => {
    const o = await redeemedOffer();
    const [a, other] = [await holderKey(), await holderKey()];
    const c = await nonce();
    const now = Math.floor(Date.now() / 1000);
    const stranger = await makeWalletProvider('Stranger');
    const attest = (o2: Parameters<typeof provider.attestKeys>[1] = {}) =>
      provider.attestKeys([a.jwk as JWK], { ...STRONG, ...o2 });
    const jwtWith = async (attestation: string) => ({
      jwt: [await a.proof({ aud: issuer, nonce: c }, { key_attestation: attestation })],
    });
    // Each case with the code and what the description must name (so it fails for its own reason).
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        'required but missing',
        { jwt: [await a.proof({ aud: issuer, nonce: c })] },
        'invalid_proof',
        /requires a key attestation/,
      ],
      [
        'key_storage not accepted',
        await jwtWith(await attest({ keyStorage: ['iso_18045_basic'] })),
        'invalid_proof',
        /key_storage \(iso_18045_basic\) meets none/,
      ],
      [
        'user_authentication absent',
        await jwtWith(await provider.attestKeys([a.jwk as JWK], { keyStorage: ['iso_18045_high'] })),
        'invalid_proof',
        /user_authentication \(absent\)/,
      ],
      [
        'level on the attestation proof type',
        { attestation: [await attest({ nonce: c, userAuthentication: ['iso_18045_moderate'] })] },
        'invalid_proof',
        /user_authentication \(iso_18045_moderate\)/,
      ],
      [
        'untrusted root',
        await jwtWith(await stranger.attestKeys([a.jwk as JWK], STRONG)),
        'invalid_proof',
        /not signed by a trusted wallet provider/,
      ],
      [
        'signed by another key than the x5c leaf',
        await jwtWith(await stranger.attestKeys([a.jwk as JWK], { ...STRONG, x5c: provider.x5c })),
        'invalid_proof',
        /does not verify: signature verification failed/,
      ],
      [
        'proof key not attested',
        await jwtWith(await provider.attestKeys([other.jwk as JWK], STRONG)),
        'invalid_proof',
        /not signed by a key of its key attestation/,
      ],
      [
        'attestation proof without nonce',
        { attestation: [await attest()] },
        'invalid_proof',
        /must carry the c_nonce/,
      ],
      [
        'attestation proof with a wrong nonce',
        { attestation: [await attest({ nonce: 'not-a-c-nonce' })] },
        'invalid_nonce',
        /not a fresh c_nonce/,
      ],
      [
        'key_attestation with a wrong nonce',
        await jwtWith(await attest({ nonce: 'not-a-c-nonce' })),
        'invalid_nonce',
        /not a fresh c_nonce/,
      ],
      [
        'expired attestation',
        await jwtWith(await attest({ iat: now - 7200, exp: now - 3600 })),
        'invalid_proof',
        /has expired/,
      ],
      [
        'key_attestation without exp',
        await jwtWith(await attest({ exp: null })),
        'invalid_proof',
        /"exp" claim/,
      ],
      [
        'iat in the future',
        await jwtWith(await attest({ iat: now + 600 })),
        'invalid_proof',
        /iat is in the future/,
      ],
      [
        'draft typ keyattestation+jwt',
        await jwtWith(await attest({ typ: 'keyattestation+jwt' })),
        'invalid_proof',
        /typ must be key-attestation\+jwt/,
      ],
      [
        'two attestations',
        { attestation: [await attest({ nonce: c }), await attest({ nonce: c })] },
        'invalid_proof',
        /exactly one/,
      ],
    ];
    for (const [name, proofs, code, description] of cases) {
      const res = await request(o, proofs);
      const body = (await res.json()) as { error: string; error_description: string };
      expect({ name, status: res.status, error: body.error }).toEqual({ name, status: 400, error: code });
      expect(body.error_description, name).toMatch(description);
    }
    expect(await state(o.offerId)).toEqual({ status: 'redeemed', credentials: 0 });
    // The same c_nonce, in the key attestation too, still issues: no refusal spent it.
    const ok = await request(o, await jwtWith(await attest({ nonce: c })));
    expect(ok.status).toBe(200);
    expect(await boundKeys(ok)).toEqual(await thumbprints([a]));
  });
});
