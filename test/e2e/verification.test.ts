import { createLocalJWKSet, jwtVerify } from 'jose';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { OAuthError, PresentationDeclinedError } from '../../clients/wallet/src/index.js';
import { publishedStatus } from '../support/credential-status.js';
import { openEventStream } from '../support/event-stream.js';
import { employeePayload, issueDirectCredential } from '../support/fixtures.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { redeemResponseCode } from '../support/redeem-response-code.js';
import type { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { until } from '../support/until.js';

/**
 * Verification end to end: an integrator starts sessions, our wallet presents (both response modes),
 * and the integrator learns the result by polling, by SSE and by the redirect code exchanged for an
 * ID token; each way a presentation can be wrong leaves the session as it should be.
 */
let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let integrator: ReturnType<typeof createIntegratorClient>;
let tenant: { id: string; integrator_token: string };
let sql: pg.Client;
let n = 0;

let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
  ({ t, smtp, integrator, sql } = f);
  tenant = f.tenant;
});
afterAll(() => f.stop());

const holder = () => walletWithCredential(integrator, smtp, `holder-${++n}@example.test`);

async function session(
  body: { response_mode?: 'direct_post' | 'direct_post.jwt'; redirect_uri?: string } = {},
) {
  const res = await integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'LEARCredentialEmployee', ...body },
  });
  if (res.status !== 201) throw new Error(`session: ${res.status}`);
  return res.body;
}

const poll = async (id: string) => {
  const res = await integrator.getAuthorizationRequest({ params: { id } });
  if (res.status !== 200) throw new Error(`poll: ${res.status}`);
  return res.body;
};

/** Presents and returns the verifier's OAuth error, if it answered with one. */
async function presentExpectingError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (e) {
    if (e instanceof OAuthError) return e;
    throw e;
  }
  throw new Error('the presentation was accepted');
}

describe('verification of a revoked credential (first, before any status list is cached)', () => {
  it('fails with reason revoked', async () => {
    const h = await holder();
    await integrator.revokeCredential({ params: { id: h.credentialId } });
    await publishedStatus(t.baseUrl, t.service.context.signer, h.stored.compact, 1);
    const s = await session();
    const error = await presentExpectingError(h.wallet.present(s.authorization_request_uri, walletHttp));
    expect(error.errorDescription).toMatch(/revoked/);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', verified: false, reason: 'revoked' });
  });
});

describe('a successful presentation', () => {
  it('direct_post.jwt: the redirect code exchanged for an ID token, which releases the result to polling', async () => {
    const h = await holder();
    const s = await session({ redirect_uri: 'https://rp.example/callback' });
    expect(s.request_uri).toBe(`openid-vp://verifier/request/${s.session_id}`);
    const result = await h.wallet.present(s.authorization_request_uri, walletHttp);
    const redirect = new URL(result.redirectUri ?? '');
    expect(redirect.origin + redirect.pathname).toBe('https://rp.example/callback');
    expect(redirect.searchParams.get('state')).toBe(s.session_id);
    // A same-device answer waits for its redirect to come back (HAIP 1.0): no claims until then.
    const waiting = await poll(s.session_id);
    expect(waiting).toMatchObject({ status: 'awaiting_redirect', verified: false });
    expect(waiting).not.toHaveProperty('claims');

    const token = (code: string) => redeemResponseCode(t.baseUrl, tenant, code, s.session_binding ?? '');
    const code = redirect.searchParams.get('code') ?? '';
    const exchanged = await token(code);
    expect(exchanged.status).toBe(200);
    const { id_token } = (await exchanged.json()) as { id_token: string };
    const jwks = (await (await fetch(`${t.baseUrl}/oauth2/jwks`)).json()) as { keys: never[] };
    const discovery = (await (await fetch(`${t.baseUrl}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    const { payload } = await jwtVerify(id_token, createLocalJWKSet(jwks), {
      issuer: discovery.issuer,
      audience: tenant.id,
    });
    expect(payload).toMatchObject({
      credential_type: 'LEARCredentialEmployee',
      credential: { mandatee: { lastName: 'Ruiz' } },
    });
    const polled = await poll(s.session_id);
    expect(polled).toMatchObject({
      status: 'verified',
      verified: true,
      credential_type: 'LEARCredentialEmployee',
    });
    expect(polled.claims).toMatchObject({
      mandatee: { firstName: 'Ana', lastName: 'Ruiz' },
      mandator: { organization: 'ACME Corp' },
    });
    expect(await (await token(code)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('direct_post: pushed over SSE (status only, no claims) and the stream closes', async () => {
    const h = await holder();
    const s = await session({ response_mode: 'direct_post' });
    const stream = await openEventStream(`${t.baseUrl}/api/login/events?state=${s.session_id}`);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    await until(
      async () => stream.text(),
      (x) => x.includes('pending'),
    );
    await h.wallet.present(s.authorization_request_uri, walletHttp);
    const all = await stream.done;
    expect(all).toContain('"status":"pending"');
    expect(all).toContain('"status":"verified"');
    expect(all).not.toContain('Ruiz');
    expect((await poll(s.session_id)).status).toBe('verified');
  });
});

describe('presentations that must fail', () => {
  it.each([
    ['a tampered disclosure', { tamperDisclosure: true }, 'tampered_disclosure'],
    ['a wrong nonce', { nonce: 'not-the-session-nonce' }, 'wrong_nonce'],
    ['a wrong audience', { audience: 'x509_hash:someone-else' }, 'wrong_audience'],
    ['a stale key binding', { issuedAt: Math.floor(Date.now() / 1000) - 3600 }, 'stale_key_binding'],
    ['no key binding', { skipKeyBinding: true }, 'missing_key_binding'],
  ])('%s fails the session with that reason', async (_what, misbehave, reason) => {
    const h = await holder();
    const s = await session();
    const error = await presentExpectingError(
      h.wallet.present(s.authorization_request_uri, { ...walletHttp, misbehave }),
    );
    expect(error.error).toBe('invalid_request');
    expect(error.errorDescription).toContain(reason);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason });
  });

  it('refuses a replayed response and a replayed vp_token, leaving the other session pending', async () => {
    const h = await holder();
    const first = await session({ response_mode: 'direct_post' });
    const sent = await h.wallet.present(first.authorization_request_uri, walletHttp);
    const replay = await presentExpectingError(
      h.wallet.present(first.authorization_request_uri, { ...walletHttp }),
    );
    expect(replay.errorDescription).toMatch(/not found|answered|404/i);
    const second = await session({ response_mode: 'direct_post' });
    const request = await fetch(
      decodeURIComponent(second.authorization_request_uri.split('request_uri=')[1] ?? ''),
    );
    const state = JSON.parse(
      Buffer.from((await request.text()).split('.')[1] ?? '', 'base64url').toString(),
    ).state;
    const vpToken = new URLSearchParams(sent.body).get('vp_token') ?? '';
    const res = await fetch(`${t.baseUrl}/oid4vp/auth-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ vp_token: vpToken, state }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/presented before/),
    });
    expect((await poll(second.session_id)).status).toBe('pending');
  });

  it('refuses an unencrypted response to a direct_post.jwt session without failing it', async () => {
    const h = await holder();
    const s = await session();
    const request = await fetch(
      decodeURIComponent(s.authorization_request_uri.split('request_uri=')[1] ?? ''),
    );
    const state = JSON.parse(
      Buffer.from((await request.text()).split('.')[1] ?? '', 'base64url').toString(),
    ).state;
    const res = await fetch(`${t.baseUrl}/oid4vp/auth-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ vp_token: JSON.stringify({ credential: [h.stored.compact] }), state }),
    });
    expect(await res.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/encrypted/),
    });
    expect((await poll(s.session_id)).status).toBe('pending');
  });

  it('answers an expired session with an error and reports it expired', async () => {
    const h = await holder();
    const s = await session({ response_mode: 'direct_post' });
    const uri = s.authorization_request_uri;
    const request = await fetch(decodeURIComponent(uri.split('request_uri=')[1] ?? ''));
    expect(request.status).toBe(200);
    await sql.query(
      "update presentation_session set expires_at = now() - interval '1 second' where id = $1",
      [s.session_id],
    );
    expect((await fetch(decodeURIComponent(uri.split('request_uri=')[1] ?? ''))).status).toBe(404);
    await presentExpectingError(h.wallet.present(uri, walletHttp));
    expect((await poll(s.session_id)).status).toBe('expired');
  });

  it('answers garbage with OAuth errors that say what is wrong, changing nothing', async () => {
    const s = await session({ response_mode: 'direct_post' });
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(`${t.baseUrl}/oid4vp/auth-response`, { method: 'POST', headers: { 'content-type': type }, body });
    for (const [body, type, status] of [
      ['', undefined, 400],
      ['vp_token=%7B&state=x', undefined, 400],
      ['response=not.a.jwe', undefined, 400],
      // A body in another media type than the endpoint declares.
      ['{"vp_token":{}}', 'application/json', 415],
      [`vp_token=${encodeURIComponent('[1,2]')}&state=nope`, undefined, 400],
    ] as const) {
      const res = await post(body, type);
      expect(res.status, body).toBe(status);
      const json = (await res.json()) as { error: string; error_description: string };
      expect(json.error).toBe('invalid_request');
      expect(json.error_description.length).toBeGreaterThan(5);
    }
    expect((await poll(s.session_id)).status).toBe('pending');
    expect((await fetch(`${t.baseUrl}/oid4vp/auth-request/nope`)).status).toBe(404);
    const other = await t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error('no tenant');
    const stranger = createIntegratorClient({ baseUrl: t.baseUrl, token: other.body.integrator_token });
    expect((await stranger.getAuthorizationRequest({ params: { id: s.session_id } })).status).toBe(404);
  });
});

describe('other holders and issuers', () => {
  it('verifies the same presentation made by a third-party holder (@openid4vc/openid4vp, @sd-jwt)', async () => {
    const holder = await ThirdPartyHolder.create();
    const credential = await issueDirectCredential(integrator, holder.holderJwk);
    for (const mode of ['direct_post', 'direct_post.jwt'] as const) {
      const s = await session({ response_mode: mode });
      const presented = await holder.present(s.authorization_request_uri, [credential]);
      expect(presented.status, mode).toBe(200);
      expect(await poll(s.session_id)).toMatchObject({
        status: 'verified',
        claims: { mandatee: { firstName: 'Ana' } },
      });
    }
  });

  it('records a wallet that declines (access_denied) as a failed session', async () => {
    const h = await holder();
    const res = await integrator.createAuthorizationRequest({
      body: {
        dcql_query: {
          credentials: [
            { id: 'other', format: 'dc+sd-jwt', meta: { vct_values: ['https://elsewhere.example/type'] } },
          ],
        },
        response_mode: 'direct_post',
      },
    });
    if (res.status !== 201) throw new Error('no session');
    const declined = await h.wallet.present(res.body.authorization_request_uri, walletHttp).catch((e) => e);
    expect(
      declined instanceof PresentationDeclinedError,
      String(declined?.errorDescription ?? declined),
    ).toBe(true);
    expect(await poll(res.body.session_id)).toMatchObject({
      status: 'failed',
      reason: 'wallet_access_denied',
    });
  });

  it('fails a direct_post.jwt session at once when a third-party wallet declines in the clear (OID4VP 8.3.1)', async () => {
    const s = await session({ response_mode: 'direct_post.jwt' });
    const stream = await openEventStream(`${t.baseUrl}/api/login/events?state=${s.session_id}`);
    await until(
      async () => stream.text(),
      (x) => x.includes('pending'),
    );
    const declined = await (await ThirdPartyHolder.create()).decline(s.authorization_request_uri);
    expect(declined.resolved.authorizationRequestPayload.response_mode).toBe('direct_post.jwt');
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason: 'wallet_access_denied' });
    expect(await stream.done).toContain('"status":"failed"');
    // The session has its answer: neither a second error nor a presentation changes it.
    const again = await (await ThirdPartyHolder.create())
      .decline(s.authorization_request_uri)
      .catch((e) => e);
    expect(again).toBeInstanceOf(Error);
    expect((await poll(s.session_id)).status).toBe('failed');
  });

  it('fails credentials of an untrusted issuer, and verifies them once the operator trusts it', async () => {
    const other = await startTestService();
    try {
      const otherTenant = await other.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
      if (otherTenant.status !== 201) throw new Error('no tenant');
      const otherIntegrator = createIntegratorClient({
        baseUrl: other.baseUrl,
        token: otherTenant.body.integrator_token,
      });
      const holder3 = await ThirdPartyHolder.create();
      const issued = await otherIntegrator.createIssuance({
        body: {
          credential_configuration_id: 'LEARCredentialEmployee',
          payload: employeePayload(),
          holder_key: holder3.holderJwk as never,
        },
      });
      if (issued.status !== 201 || !issued.body.credential) throw new Error('not issued');
      // Ask for the other issuer's type: the vct is a URL of that issuer.
      const vct = `${other.service.context.config.issuerUrl}/credential-types/LEARCredentialEmployee`;
      const ask = async () => {
        const res = await integrator.createAuthorizationRequest({
          body: {
            dcql_query: {
              credentials: [
                {
                  id: 'employee',
                  format: 'dc+sd-jwt',
                  meta: { vct_values: [vct] },
                  claims: [{ path: ['mandatee', 'firstName'] }],
                },
              ],
            },
            response_mode: 'direct_post',
          },
        });
        if (res.status !== 201) throw new Error('no session');
        return res.body;
      };
      const first = await ask();
      expect((await holder3.present(first.authorization_request_uri, [issued.body.credential])).status).toBe(
        400,
      );
      expect(await poll(first.session_id)).toMatchObject({ status: 'failed', reason: 'untrusted_issuer' });

      const trust = await fetch(`${t.baseUrl}/admin/v1/tenants/${tenant.id}/trusted-issuers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ issuer: other.service.context.config.issuerUrl }),
      });
      expect(trust.status).toBe(201);
      expect(await trust.json()).toMatchObject({ warnings: [] });
      const second = await ask();
      expect((await holder3.present(second.authorization_request_uri, [issued.body.credential])).status).toBe(
        200,
      );
      expect(await poll(second.session_id)).toMatchObject({
        status: 'verified',
        claims: { mandatee: { firstName: 'Ana' } },
      });
    } finally {
      await other.stop();
    }
  });
});

describe('two nodes', () => {
  it('pushes the result over SSE on one node when the wallet answers another (Redis pub/sub)', async () => {
    const h = await holder();
    // A second api node of the same deployment: same database, Redis and queues.
    const second = await startTestService({
      db: t.db,
      env: { ROLE: 'api', QUEUE_PREFIX: t.env.QUEUE_PREFIX ?? '' },
    });
    try {
      const s = await session({ response_mode: 'direct_post' });
      const stream = await openEventStream(`${second.baseUrl}/api/login/events?state=${s.session_id}`);
      await until(
        async () => stream.text(),
        (x) => x.includes('pending'),
      );
      // The wallet talks to the first node only (the session's URIs name it).
      expect(s.authorization_request_uri).toContain(encodeURIComponent(t.baseUrl));
      await h.wallet.present(s.authorization_request_uri, walletHttp);
      expect(await stream.done).toContain('"status":"verified"');
    } finally {
      await second.stop();
    }
  });
});
