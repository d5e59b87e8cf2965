import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { holderKey } from '../support/proof-jwt.js';
import type { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import type { TestService } from '../support/test-service.js';

let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let integrator: ReturnType<typeof createIntegratorClient>;
let sql: pg.Client;
let issuer: string;
let n = 0;

let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture({ BATCH_SIZE: '3' });
  ({ t, smtp, integrator, sql } = f);
  issuer = t.service.context.config.issuerUrl;
});
afterAll(() => f.stop());

const post = (path: string, body: unknown, accessToken?: string) =>
  fetch(`${t.baseUrl}/oid4vci/v1/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    body: JSON.stringify(body),
  });

/** An offer redeemed up to the access token, the way a wallet gets there. */
async function redeemedOffer() {
  const { offerId, location, txCode } = await mailedOffer(integrator, smtp, `holder-${++n}@example.test`);
  const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
  const tokenRes = await fetch(`${t.baseUrl}/oid4vci/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code':
        offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'] ?? '',
      tx_code: txCode ?? '',
    }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  return { offerId, accessToken: access_token as string };
}

const nonce = async () => ((await (await post('nonce', undefined)).json()) as { c_nonce: string }).c_nonce;

const state = async (offerId: string) => {
  const { rows } = await sql.query(
    `select i.status, (select count(*)::int from issued_credential c where c.issuance_id = i.id) as credentials,
            (select count(*)::int from oid4vci_nonce) as nonces
     from issuance i where i.id = $1`,
    [offerId],
  );
  return rows[0];
};

describe('OID4VCI credential endpoint', () => {
  it('issues one SD-JWT VC per proof (batch), bound to each proof key, then refuses a second request', async () => {
    const o = await redeemedOffer();
    const [a, b] = [await holderKey(), await holderKey()];
    const c = await nonce();
    const res = await post(
      'credential',
      {
        credential_configuration_id: 'LEARCredentialEmployee',
        proofs: { jwt: [await a.proof({ aud: issuer, nonce: c }), await b.proof({ aud: issuer, nonce: c })] },
      },
      o.accessToken,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { credentials: { credential: string }[]; notification_id: string };
    expect(body.credentials).toHaveLength(2);
    expect(body.notification_id).toEqual(expect.any(String));
    const cnfs = body.credentials.map((x: { credential: string }) => {
      const [jwt] = x.credential.split('~');
      const [h, p] = (jwt ?? '')
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part ?? '', 'base64url').toString()));
      expect(h).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: expect.any(String) });
      expect(p).toMatchObject({
        iss: issuer,
        vct: `${issuer}/credential-types/LEARCredentialEmployee`,
        status: { status_list: { idx: expect.any(Number), uri: expect.any(String) } },
      });
      expect(p.mandatee._sd).toHaveLength(3);
      // OID4VCI 1.0 section 15.4.1: time claims rounded (to the hour), so a batch is not linkable by them.
      expect(p.iat % 3600).toBe(0);
      expect(p.iat).toBeLessThanOrEqual(Date.now() / 1000);
      expect(p.iat).toBeGreaterThan(Date.now() / 1000 - 3600);
      return p.cnf.jwk.x;
    });
    expect(cnfs).toEqual([a.jwk.x, b.jwk.x]);
    const again = await post(
      'credential',
      {
        credential_configuration_id: 'LEARCredentialEmployee',
        proofs: { jwt: [await a.proof({ aud: issuer, nonce: await nonce() })] },
      },
      o.accessToken,
    );
    expect(await again.json()).toMatchObject({ error: 'credential_request_denied' });

    const notified = await post(
      'notification',
      { notification_id: body.notification_id, event: 'credential_accepted' },
      o.accessToken,
    );
    expect(notified.status).toBe(204);
    const read = await integrator.getIssuance({ params: { id: o.offerId } });
    expect(read.status === 200 && read.body.credentials.map((x) => x.wallet_notification)).toEqual([
      'credential_accepted',
      'credential_accepted',
    ]);
    expect(
      await (
        await post('notification', { notification_id: 'nope', event: 'credential_accepted' }, o.accessToken)
      ).json(),
    ).toMatchObject({ error: 'invalid_notification_id' });
  });

  it.each([
    [
      'a proof signed for another audience',
      async (k: Awaited<ReturnType<typeof holderKey>>, c: string) =>
        k.proof({ aud: 'https://elsewhere.example', nonce: c }),
      'invalid_proof',
    ],
    [
      'a stale proof',
      async (k: Awaited<ReturnType<typeof holderKey>>, c: string) =>
        k.proof({ aud: issuer, nonce: c, iat: Math.floor(Date.now() / 1000) - 3600 }),
      'invalid_proof',
    ],
    [
      'a proof of the wrong typ',
      async (k: Awaited<ReturnType<typeof holderKey>>, c: string) =>
        k.proof({ aud: issuer, nonce: c }, { typ: 'JWT' }),
      'invalid_proof',
    ],
    [
      'a proof without nonce',
      async (k: Awaited<ReturnType<typeof holderKey>>) => k.proof({ aud: issuer }),
      'invalid_proof',
    ],
    [
      'a proof with an unknown nonce',
      async (k: Awaited<ReturnType<typeof holderKey>>) => k.proof({ aud: issuer, nonce: 'made-up' }),
      'invalid_nonce',
    ],
    ['garbage', async () => 'not.a.jwt', 'invalid_proof'],
  ])('refuses %s, issuing nothing and keeping the c_nonce', async (_what, makeProof, error) => {
    const o = await redeemedOffer();
    const k = await holderKey();
    const c = await nonce();
    const before = await state(o.offerId);
    const res = await post(
      'credential',
      { credential_configuration_id: 'LEARCredentialEmployee', proofs: { jwt: [await makeProof(k, c)] } },
      o.accessToken,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error });
    expect(await state(o.offerId)).toEqual(before);
    // The offer is still good: a correct request afterwards succeeds, with the same nonce.
    const ok = await post(
      'credential',
      {
        credential_configuration_id: 'LEARCredentialEmployee',
        proofs: { jwt: [await k.proof({ aud: issuer, nonce: c })] },
      },
      o.accessToken,
    );
    expect(ok.status).toBe(200);
  });

  it('uses a c_nonce once', async () => {
    const [o1, o2] = [await redeemedOffer(), await redeemedOffer()];
    const k = await holderKey();
    const c = await nonce();
    const body = async () => ({
      credential_configuration_id: 'LEARCredentialEmployee',
      proofs: { jwt: [await k.proof({ aud: issuer, nonce: c })] },
    });
    expect((await post('credential', await body(), o1.accessToken)).status).toBe(200);
    const before = await state(o2.offerId);
    expect(await (await post('credential', await body(), o2.accessToken)).json()).toMatchObject({
      error: 'invalid_nonce',
    });
    // The refused request changed nothing: the offer is still redeemed, no credential recorded.
    expect(await state(o2.offerId)).toEqual(before);
    const fresh = {
      ...(await body()),
      proofs: { jwt: [await k.proof({ aud: issuer, nonce: await nonce() })] },
    };
    expect((await post('credential', fresh, o2.accessToken)).status).toBe(200);
  });

  it('issues an offer once when two requests race for it', async () => {
    const o = await redeemedOffer();
    const k = await holderKey();
    const request = async () =>
      post(
        'credential',
        {
          credential_configuration_id: 'LEARCredentialEmployee',
          proofs: { jwt: [await k.proof({ aud: issuer, nonce: await nonce() })] },
        },
        o.accessToken,
      );
    const answers = await Promise.all([request(), request(), request()]);
    const errors = await Promise.all(answers.filter((r) => r.status !== 200).map((r) => r.json()));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(errors).toEqual([
      expect.objectContaining({ error: 'credential_request_denied' }),
      expect.objectContaining({ error: 'credential_request_denied' }),
    ]);
    expect(await state(o.offerId)).toMatchObject({ status: 'issued', credentials: 1 });
  });

  it('answers request errors with the spec codes', async () => {
    const o = await redeemedOffer();
    const k = await holderKey();
    const proof = async () => ({ jwt: [await k.proof({ aud: issuer, nonce: await nonce() })] });
    const noToken = await post('credential', {
      credential_configuration_id: 'LEARCredentialEmployee',
      proofs: await proof(),
    });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(
      await (
        await post(
          'credential',
          { credential_configuration_id: 'Other', proofs: await proof() },
          o.accessToken,
        )
      ).json(),
    ).toMatchObject({ error: 'unknown_credential_configuration' });
    expect(
      await (
        await post('credential', { credential_configuration_id: 'LEARCredentialEmployee' }, o.accessToken)
      ).json(),
    ).toMatchObject({ error: 'invalid_proof' });
    const four = {
      jwt: await Promise.all([1, 2, 3, 4].map(async () => k.proof({ aud: issuer, nonce: await nonce() }))),
    };
    expect(
      await (
        await post(
          'credential',
          { credential_configuration_id: 'LEARCredentialEmployee', proofs: four },
          o.accessToken,
        )
      ).json(),
    ).toMatchObject({ error: 'invalid_credential_request' });
    expect(await (await post('credential', { proofs: 'nope' }, o.accessToken)).json()).toMatchObject({
      error: 'invalid_credential_request',
    });
    expect((await state(o.offerId)).credentials).toBe(0);
  });

  it('answers a body that is not JSON with invalid_credential_request (section 8.3.1.2), issuing nothing', async () => {
    const o = await redeemedOffer();
    const send = (body: string, type: string) =>
      fetch(`${t.baseUrl}/oid4vci/v1/credential`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${o.accessToken}` },
        body,
      });
    for (const [body, type] of [
      ['{"credential_configuration_id":', 'application/json'],
      ['credential_configuration_id=LEARCredentialEmployee', 'application/x-www-form-urlencoded'],
      ['LEARCredentialEmployee', 'text/plain'],
    ] as const) {
      const res = await send(body, type);
      // 400, or 415 where the edge refuses the media type before the endpoint reads it.
      expect([400, 415], type).toContain(res.status);
      expect(await res.json(), type).toMatchObject({ error: 'invalid_credential_request' });
    }
    expect((await state(o.offerId)).credentials).toBe(0);
  });

  it('refuses proofs of two types (section 8.2: exactly one), issuing nothing and keeping the c_nonce', async () => {
    const o = await redeemedOffer();
    const k = await holderKey();
    const c = await nonce();
    const before = await state(o.offerId);
    const jwt = [await k.proof({ aud: issuer, nonce: c })];
    const both = await post(
      'credential',
      {
        credential_configuration_id: 'LEARCredentialEmployee',
        proofs: { jwt, di_vp: [{ '@context': ['https://www.w3.org/ns/credentials/v2'] }] },
      },
      o.accessToken,
    );
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: 'invalid_credential_request' });
    expect(await state(o.offerId)).toEqual(before);
    const one = await post(
      'credential',
      { credential_configuration_id: 'LEARCredentialEmployee', proofs: { jwt } },
      o.accessToken,
    );
    expect(one.status).toBe(200);
  });
});
