import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DpopClaims, dpopKey } from '../support/dpop-proof.js';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { holderKey } from '../support/proof-jwt.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * DPoP (RFC 9449) over raw HTTP, proofs made by hand: every refused proof gets its exact error
 * (invalid_dpop_proof, use_dpop_nonce with DPoP-Nonce; 400 at the token endpoint, 401 with a
 * `WWW-Authenticate: DPoP` challenge at the credential endpoint) and leaves the pre-authorized code
 * and the c_nonce usable, which the request after it shows.
 */
let f: TenantFixture;
let sql: pg.Client;
let base: string;
let n = 0;
const TOKEN = '/oauth2/token';

beforeAll(async () => {
  f = await startTenantFixture();
  sql = f.sql;
  base = f.t.baseUrl;
});
afterAll(() => f.stop());

async function newOffer() {
  const { offerId, location, txCode } = await mailedOffer(
    f.integrator,
    f.smtp,
    `dpop-raw-${++n}@example.test`,
  );
  const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
  const code =
    offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'] ?? '';
  return { offerId, code, txCode };
}

const tokenRequest = (o: { code: string; txCode: string }, dpop?: string, path = TOKEN) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': o.code,
      tx_code: o.txCode,
    }),
  });

/** The current DPoP nonce, as the nonce endpoint hands it out beside a c_nonce. */
async function nonces() {
  const res = await fetch(`${base}/oid4vci/v1/nonce`, { method: 'POST' });
  const { c_nonce } = (await res.json()) as { c_nonce: string };
  return { cNonce: c_nonce, dpopNonce: res.headers.get('dpop-nonce') as string };
}

const offerStatus = async (offerId: string) =>
  (await sql.query('select status from issuance where id = $1', [offerId])).rows[0]?.status;

async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toMatchObject({ error });
  if (status === 401)
    expect(res.headers.get('www-authenticate')).toMatch(new RegExp(`^DPoP .*error="${error}"`));
}

describe('DPoP at the token endpoint', () => {
  it('answers a proof without nonce with use_dpop_nonce and a DPoP-Nonce, then binds the token to the key', async () => {
    const o = await newOffer();
    const key = await dpopKey();
    const claims: DpopClaims = { htm: 'POST', htu: `${base}${TOKEN}` };
    const first = await tokenRequest(o, await key.proof(claims));
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = first.headers.get('dpop-nonce');
    expect(nonce).toBeTruthy();
    expect(await offerStatus(o.offerId)).toBe('offered');
    const res = await tokenRequest(o, await key.proof({ ...claims, nonce: nonce as string }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'DPoP', expires_in: 300 });
    expect(res.headers.get('dpop-nonce')).toBeTruthy();
    const { rows } = await sql.query('select dpop_jkt from oid4vci_access_token where issuance_id = $1', [
      o.offerId,
    ]);
    expect(rows).toEqual([{ dpop_jkt: key.jkt }]);
  });

  it('accepts an htu with a query (ignored) at the older token endpoint too', async () => {
    const o = await newOffer();
    const key = await dpopKey();
    const { dpopNonce } = await nonces();
    const path = '/oid4vci/v1/token';
    const res = await tokenRequest(
      o,
      await key.proof({ htm: 'POST', htu: `${base}${path}?x=1#f`, nonce: dpopNonce }),
      path,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'DPoP' });
  });

  it('refuses each broken proof with invalid_dpop_proof, and the code stays usable', async () => {
    const o = await newOffer();
    const key = await dpopKey();
    const { dpopNonce: nonce } = await nonces();
    const good: DpopClaims = { htm: 'POST', htu: `${base}${TOKEN}`, nonce };
    const now = Math.floor(Date.now() / 1000);
    const broken: Record<string, string> = {
      'wrong htu': await key.proof({ ...good, htu: `${base}/oid4vci/v1/credential` }),
      'wrong htm': await key.proof({ ...good, htm: 'GET' }),
      'stale iat': await key.proof({ ...good, iat: now - 120 }),
      'iat in the future': await key.proof({ ...good, iat: now + 120 }),
      'alg none': key.unsigned(good),
      HS256: await key.hmac(good),
      'private key in jwk': await key.leakingPrivateKey(good),
      'wrong typ': await key.proof(good, { typ: 'jwt' }),
      'no jti': await key.proof({ ...good, extra: { jti: undefined } }),
      'signed by another key': (await key.proof(good)).replace(
        /\.[^.]+$/,
        `.${(await (await dpopKey()).proof(good)).split('.')[2]}`,
      ),
      'not a JWT': 'not-a-jwt',
    };
    for (const [what, proof] of Object.entries(broken)) {
      const res = await tokenRequest(o, proof);
      expect([what, res.status]).toEqual([what, 400]);
      expect([what, await res.json()]).toEqual([
        what,
        expect.objectContaining({ error: 'invalid_dpop_proof' }),
      ]);
    }
    expect(await offerStatus(o.offerId)).toBe('offered');
    const res = await tokenRequest(o, await key.proof(good));
    expect(res.status).toBe(200);
  });

  it('refuses a proof whose jti was used before, and the second offer stays open', async () => {
    const [a, b] = [await newOffer(), await newOffer()];
    const key = await dpopKey();
    const { dpopNonce: nonce } = await nonces();
    const proof = await key.proof({ htm: 'POST', htu: `${base}${TOKEN}`, nonce });
    expect((await tokenRequest(a, proof)).status).toBe(200);
    await expectError(await tokenRequest(b, proof), 400, 'invalid_dpop_proof');
    expect(await offerStatus(b.offerId)).toBe('offered');
  });

  it('keeps giving Bearer tokens to wallets without DPoP', async () => {
    const res = await tokenRequest(await newOffer());
    expect(await res.json()).toMatchObject({ token_type: 'Bearer' });
  });
});

describe('DPoP at the credential and notification endpoints', () => {
  /** A DPoP-bound token for a fresh offer, its key, and a key proof for a fresh c_nonce. */
  async function boundToken() {
    const o = await newOffer();
    const key = await dpopKey();
    const { dpopNonce, cNonce } = await nonces();
    const res = await tokenRequest(
      o,
      await key.proof({ htm: 'POST', htu: `${base}${TOKEN}`, nonce: dpopNonce }),
    );
    const { access_token } = (await res.json()) as { access_token: string };
    const holder = await holderKey();
    const body = JSON.stringify({
      credential_configuration_id: 'LEARCredentialEmployee',
      proofs: { jwt: [await holder.proof({ aud: f.t.service.context.config.issuerUrl, nonce: cNonce })] },
    });
    return { o, key, token: access_token, dpopNonce, body };
  }

  const credential = (body: string, authorization: string, dpop?: string) =>
    fetch(`${base}/oid4vci/v1/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...(dpop ? { dpop } : {}) },
      body,
    });

  const issued = async (offerId: string) =>
    (await sql.query('select count(*)::int as n from issued_credential where issuance_id = $1', [offerId]))
      .rows[0].n;

  it('refuses each broken request with its error and a DPoP challenge, issuing nothing, then issues', async () => {
    const { o, key, token, dpopNonce: nonce, body } = await boundToken();
    const htu = `${base}/oid4vci/v1/credential`;
    const good: DpopClaims = { htm: 'POST', htu, nonce, accessToken: token };
    const other = await dpopKey();
    const cases: [string, string, string | undefined, number, string][] = [
      [
        'missing ath',
        `DPoP ${token}`,
        await key.proof({ ...good, accessToken: undefined }),
        401,
        'invalid_dpop_proof',
      ],
      [
        'ath of another token',
        `DPoP ${token}`,
        await key.proof({ ...good, accessToken: 'x' }),
        401,
        'invalid_dpop_proof',
      ],
      ['proof by another key', `DPoP ${token}`, await other.proof(good), 401, 'invalid_dpop_proof'],
      [
        'wrong htu',
        `DPoP ${token}`,
        await key.proof({ ...good, htu: `${base}/oid4vci/v1/notification` }),
        401,
        'invalid_dpop_proof',
      ],
      ['wrong htm', `DPoP ${token}`, await key.proof({ ...good, htm: 'PUT' }), 401, 'invalid_dpop_proof'],
      ['alg none', `DPoP ${token}`, key.unsigned(good), 401, 'invalid_dpop_proof'],
      ['no proof', `DPoP ${token}`, undefined, 401, 'invalid_dpop_proof'],
      ['bound token as Bearer', `Bearer ${token}`, await key.proof(good), 401, 'invalid_token'],
    ];
    for (const [what, authorization, proof, status, error] of cases) {
      const res = await credential(body, authorization, proof);
      expect([what, res.status, ((await res.json()) as { error: string }).error]).toEqual([
        what,
        status,
        error,
      ]);
      expect([what, res.headers.get('www-authenticate')]).toEqual([
        what,
        expect.stringMatching(`^DPoP .*error="${error}"`),
      ]);
    }
    const noNonce = await credential(body, `DPoP ${token}`, await key.proof({ ...good, nonce: undefined }));
    await expectError(noNonce, 401, 'use_dpop_nonce');
    expect(noNonce.headers.get('dpop-nonce')).toBeTruthy();
    expect(await issued(o.offerId)).toBe(0);
    // The same key proof (so the same c_nonce), now with a good DPoP proof: issued.
    const proof = await key.proof(good);
    const ok = await credential(body, `DPoP ${token}`, proof);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('dpop-nonce')).toBeTruthy();
    const { notification_id } = (await ok.json()) as { notification_id: string };
    expect(await issued(o.offerId)).toBe(1);
    // The proof once more: its jti is spent.
    await expectError(await credential(body, `DPoP ${token}`, proof), 401, 'invalid_dpop_proof');
    const notify = (dpop: string) =>
      fetch(`${base}/oid4vci/v1/notification`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DPoP ${token}`, dpop },
        body: JSON.stringify({ notification_id, event: 'credential_accepted' }),
      });
    const notificationProof = await key.proof({ ...good, htu: `${base}/oid4vci/v1/notification` });
    expect((await notify(notificationProof)).status).toBe(204);
    await expectError(await notify(notificationProof), 401, 'invalid_dpop_proof');
  });

  it('refuses a Bearer token sent with the DPoP scheme', async () => {
    const o = await newOffer();
    const { access_token } = (await (await tokenRequest(o)).json()) as { access_token: string };
    const res = await credential('{}', `DPoP ${access_token}`);
    await expectError(res, 401, 'invalid_token');
  });
});
