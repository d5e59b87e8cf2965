import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream, statusesOf } from '../support/event-stream.js';
import { employeePayload } from '../support/fixtures.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { redeemResponseCode } from '../support/redeem-response-code.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { until } from '../support/until.js';

/**
 * HAIP 1.0 presentations via redirects: `haip-vp://` request links (per request and as the tenant's
 * default), and the same-device flow: the answer to the wallet's POST redirects with a fresh
 * response_code that the integrator redeems only with the session_binding it got at creation, once,
 * and only that releases the result (polling, SSE); an answer from another device (the QR code) is
 * never redirected. What is recorded, and the deadline of an unredeemed code:
 * same-device-release.test.ts.
 */
let f: TenantFixture;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const holder = () => walletWithCredential(f.integrator, f.smtp, `same-device-${++n}@example.test`);

async function session(body: Record<string, unknown> = {}) {
  const res = await f.integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'LEARCredentialEmployee', ...body } as never,
  });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const poll = async (id: string) => {
  const res = await f.integrator.getAuthorizationRequest({ params: { id } });
  if (res.status !== 200) throw new Error(`poll: ${res.status}`);
  return res.body;
};

/** The integrator's back end redeems a response_code at the token endpoint. */
const redeem = (code: string, binding?: string) => redeemResponseCode(f.t.baseUrl, f.tenant, code, binding);

async function thirdPartyCredential(holder3: ThirdPartyHolder) {
  const issued = await f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'direct',
      holder_key: holder3.holderJwk as never,
    },
  });
  if (issued.status !== 201 || !issued.body.credential) throw new Error('not issued');
  return issued.body.credential;
}

describe('haip-vp:// request links', () => {
  it('per request: our wallet and the third-party holder answer a haip-vp:// link', async () => {
    const s = await session({ uri_scheme: 'haip-vp' });
    expect(s.authorization_request_uri).toMatch(/^haip-vp:\/\/\?client_id=/);
    expect(s.cross_device_uri).toMatch(/^haip-vp:\/\/\?client_id=/);
    const h = await holder();
    await h.wallet.present(s.authorization_request_uri, walletHttp);
    expect(await poll(s.session_id)).toMatchObject({ status: 'verified' });

    const holder3 = await ThirdPartyHolder.create();
    const credential = await thirdPartyCredential(holder3);
    const other = await session({ uri_scheme: 'haip-vp' });
    expect((await holder3.present(other.authorization_request_uri, [credential])).status).toBe(200);
    expect(await poll(other.session_id)).toMatchObject({ status: 'verified' });
  });

  it('as the tenant default, which a request may override; a bad scheme is a 400', async () => {
    const patched = await f.t.admin.updateTenant({
      params: { id: f.tenant.id },
      body: { presentation_uri_scheme: 'haip-vp' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ presentation_uri_scheme: 'haip-vp' });
    try {
      expect((await session()).authorization_request_uri).toMatch(/^haip-vp:\/\//);
      expect((await session({ uri_scheme: 'openid4vp' })).authorization_request_uri).toMatch(
        /^openid4vp:\/\//,
      );
      const bad = await f.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', uri_scheme: 'javascript' } as never,
      });
      expect(bad.status).toBe(400);
    } finally {
      await f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: { presentation_uri_scheme: null } });
    }
    expect((await session()).authorization_request_uri).toMatch(/^openid4vp:\/\//);
  });
});

describe('same-device flow (HAIP 1.0 redirects, OID4VP 1.0 section 8.2)', () => {
  it('redirects our wallet with a response_code redeemed once, and only with the session binding', async () => {
    const s = await session({ redirect_uri: 'https://rp.example/callback' });
    expect(s.session_binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stream = await openEventStream(`${f.t.baseUrl}/api/login/events?state=${s.session_id}`);
    await until(
      async () => stream.text(),
      (x) => x.includes('pending'),
    );
    const h = await holder();
    const result = await h.wallet.present(s.authorization_request_uri, walletHttp);
    const redirect = new URL(result.redirectUri ?? '');
    expect(redirect.origin + redirect.pathname).toBe('https://rp.example/callback');
    const code = redirect.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Verified, but held back until the redirect comes back (HAIP 1.0 section 5.1): nothing presented shows.
    const withheld = async () => {
      const polled = await poll(s.session_id);
      expect(polled).toMatchObject({ status: 'awaiting_redirect', verified: false });
      expect(polled.credential_type).toBe('LEARCredentialEmployee');
      for (const held of ['claims', 'trust', 'credentials', 'reason'])
        expect(polled).not.toHaveProperty(held);
    };
    await withheld();

    // Another browser session holds another session's binding, or none: refused, code unspent.
    const other = await session({ redirect_uri: 'https://rp.example/callback' });
    const stolen = await redeem(code, other.session_binding);
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: 'invalid_grant' });
    const unbound = await redeem(code);
    expect(unbound.status).toBe(400);
    expect(await unbound.json()).toMatchObject({ error: 'invalid_request' });
    await withheld();

    const redeemed = await redeem(code, s.session_binding);
    expect(redeemed.status).toBe(200);
    expect(await redeemed.json()).toHaveProperty('id_token');
    expect(await poll(s.session_id)).toMatchObject({
      status: 'verified',
      verified: true,
      claims: { mandatee: { firstName: 'Ana', lastName: 'Ruiz' } },
    });
    // The stream said verified only after the redemption (the refused ones published nothing), then ended.
    expect(statusesOf(await stream.done)).toEqual(['pending', 'awaiting_redirect', 'verified']);
    const replayed = await redeem(code, s.session_binding);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('redirects the third-party holder with a response_code (direct_post and direct_post.jwt)', async () => {
    const holder3 = await ThirdPartyHolder.create();
    const credential = await thirdPartyCredential(holder3);
    for (const mode of ['direct_post', 'direct_post.jwt'] as const) {
      const s = await session({ redirect_uri: 'https://rp.example/done', response_mode: mode });
      const presented = await holder3.present(s.authorization_request_uri, [credential]);
      expect(presented.status, mode).toBe(200);
      const redirect = new URL(String(presented.body.redirect_uri));
      const code = redirect.searchParams.get('code') ?? '';
      expect((await redeem(code, 'not-the-binding')).status, mode).toBe(400);
      expect((await poll(s.session_id)).status, mode).toBe('awaiting_redirect');
      expect((await redeem(code, s.session_binding)).status, mode).toBe(200);
      expect((await poll(s.session_id)).status, mode).toBe('verified');
    }
  });

  it('never redirects an answer from another device (the QR code), for either holder', async () => {
    const s = await session({ redirect_uri: 'https://rp.example/callback' });
    expect(s.cross_device_uri).not.toBe(s.authorization_request_uri);
    const h = await holder();
    const result = await h.wallet.present(s.cross_device_uri, walletHttp);
    expect(result.redirectUri).toBeUndefined();
    expect(await poll(s.session_id)).toMatchObject({ status: 'verified' });
    const stored = await f.sql.query('select response_code_hash from presentation_session where id = $1', [
      s.session_id,
    ]);
    expect(stored.rows[0]?.response_code_hash).toBeNull();

    const holder3 = await ThirdPartyHolder.create();
    const credential = await thirdPartyCredential(holder3);
    const t3 = await session({ redirect_uri: 'https://rp.example/callback' });
    const presented = await holder3.present(t3.cross_device_uri, [credential]);
    expect(presented.status).toBe(200);
    expect(presented.body.redirect_uri).toBeUndefined();
  });

  it('gives no session binding, and no redirect, to a session without redirect_uri', async () => {
    const s = await session();
    expect(s.session_binding).toBeUndefined();
    expect(s.cross_device_uri).toBe(s.authorization_request_uri);
    const h = await holder();
    expect((await h.wallet.present(s.authorization_request_uri, walletHttp)).redirectUri).toBeUndefined();
  });
});
