import { X509Certificate } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../support/event-stream.js';
import { issueDirectCredential } from '../support/fixtures.js';
import { walletWithCredential } from '../support/holder-setup.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * OpenID4VP over the W3C Digital Credentials API (OID4VP 1.0 Appendix A, HAIP 1.0 section
 * "OpenID4VP via W3C Digital Credentials API"): the integrator gets a request for its page, a
 * third-party wallet (@openid4vc/openid4vp) answers it as the browser would hand it over, the page
 * posts the answer back, and the result reaches polling, SSE and the redirect as every other answer.
 */
const ORIGIN = 'https://shop.example';
let f: TenantFixture;
let holder: ThirdPartyHolder;
let credential: string;

beforeAll(async () => {
  f = await startTenantFixture();
  holder = await ThirdPartyHolder.create();
  credential = await issueDirectCredential(f.integrator, holder.holderJwk);
});
afterAll(() => f.stop());

type Mode = 'dc_api' | 'dc_api.jwt';
async function session(body: Record<string, unknown> = {}) {
  const res = await f.integrator.createAuthorizationRequest({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      response_mode: 'dc_api.jwt' as Mode,
      expected_origins: [ORIGIN],
      ...body,
    } as never,
  });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  const { dc_api_request, dc_api_response_uri } = res.body;
  if (!dc_api_request || !dc_api_response_uri) throw new Error('no dc_api_request');
  return { ...res.body, dc_api_request, dc_api_response_uri };
}

/** What the integrator's page does with the DigitalCredential: post its data and the page's origin. */
const postBack = (uri: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(uri, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const poll = async (id: string) => (await f.integrator.getAuthorizationRequest({ params: { id } })).body;

describe('OpenID4VP over the Digital Credentials API', () => {
  it('dc_api.jwt, signed: a request object with x5c, x509_hash client_id and expected_origins; verified over SSE', async () => {
    const s = await session();
    expect(s.dc_api_request.protocol).toBe('openid4vp-v1-signed');
    const jws = s.dc_api_request.data.request as string;
    expect(Object.keys(s.dc_api_request.data)).toEqual(['request']);
    const header = decodeProtectedHeader(jws);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt' });
    const leaf = new X509Certificate(Buffer.from(header.x5c?.[0] ?? '', 'base64'));
    expect(leaf.checkIssued(leaf)).toBe(false); // HAIP: not self-signed, trust anchor left out
    const payload = decodeJwt(jws) as Record<string, unknown> & { client_metadata: Record<string, never> };
    expect(payload).toMatchObject({
      client_id: expect.stringMatching(/^x509_hash:[A-Za-z0-9_-]{43}$/),
      expected_origins: [ORIGIN],
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
      nonce: expect.any(String),
      dcql_query: { credentials: [expect.objectContaining({ format: 'dc+sd-jwt' })] },
    });
    expect(payload.client_metadata.encrypted_response_enc_values_supported).toEqual(['A128GCM', 'A256GCM']);
    expect(payload.client_metadata.jwks).toMatchObject({ keys: [{ kty: 'EC', crv: 'P-256', use: 'enc' }] });
    for (const absent of ['state', 'response_uri', 'redirect_uri', 'request_uri'])
      expect(payload, absent).not.toHaveProperty(absent);

    const stream = await openEventStream(`${f.t.baseUrl}/api/login/events?state=${s.session_id}`);
    const { data } = await holder.answerDcApi(s.dc_api_request, ORIGIN, [credential]);
    expect(Object.keys(data)).toEqual(['response']);
    const res = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data }, { origin: ORIGIN });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({});
    expect(await stream.done).toContain('"status":"verified"');
    expect(await poll(s.session_id)).toMatchObject({
      status: 'verified',
      claims: { mandatee: { firstName: 'Ana' } },
    });
  });

  it('dc_api, unsigned: plain parameters without client_id; the answer redirects with a response_code', async () => {
    const s = await session({
      response_mode: 'dc_api',
      dc_api_request_type: 'unsigned',
      redirect_uri: 'https://shop.example/done',
    });
    expect(s.dc_api_request).toMatchObject({
      protocol: 'openid4vp-v1-unsigned',
      data: { response_type: 'vp_token', response_mode: 'dc_api', nonce: expect.any(String) },
    });
    expect(s.dc_api_request.data).not.toHaveProperty('client_id');
    expect(s.dc_api_request.data).not.toHaveProperty('expected_origins');
    expect(s.dc_api_request.data.client_metadata).not.toHaveProperty('jwks');
    const { data } = await holder.answerDcApi(s.dc_api_request, ORIGIN, [credential]);
    expect(Object.keys(data)).toEqual(['vp_token']);
    const res = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data });
    const { redirect_uri } = (await res.json()) as { redirect_uri: string };
    const back = new URL(redirect_uri);
    expect(back.origin + back.pathname).toBe('https://shop.example/done');
    expect(back.searchParams.get('state')).toBe(s.session_id);
    expect((await poll(s.session_id)).status).toBe('awaiting_redirect');
    const exchanged = await fetch(`${f.t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${f.tenant.id}:${f.tenant.integrator_token}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') ?? '',
        session_binding: s.session_binding ?? '',
      }),
    });
    expect(exchanged.status).toBe(200);
    expect((await poll(s.session_id)).status).toBe('verified');
  });

  it('our wallet (clients/wallet) answers signed dc_api.jwt and unsigned dc_api requests', async () => {
    const { wallet } = await walletWithCredential(f.integrator, f.smtp, 'dc-api@example.test');
    for (const body of [{}, { response_mode: 'dc_api', dc_api_request_type: 'unsigned' }]) {
      const s = await session(body);
      const { data } = await wallet.answerDcApi(s.dc_api_request, ORIGIN);
      expect(Object.keys(data)).toEqual([body.response_mode ? 'vp_token' : 'response']);
      const res = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await poll(s.session_id)).toMatchObject({ status: 'verified' });
    }
    const s = await session();
    await expect(wallet.answerDcApi(s.dc_api_request, 'https://evil.example')).rejects.toThrow(
      /invalid_request: origin https:\/\/evil.example is not one of the expected_origins/,
    );
  });

  it('a wallet refuses the signed request on another origin (expected_origins)', async () => {
    const s = await session();
    await expect(holder.answerDcApi(s.dc_api_request, 'https://evil.example', [credential])).rejects.toThrow(
      /expected_origins/,
    );
  });

  it('refuses an answer from an origin the session does not expect, changing nothing', async () => {
    const s = await session({ expected_origins: [ORIGIN, 'https://other.example'] });
    const { data } = await holder.answerDcApi(s.dc_api_request, 'https://other.example', [credential]);
    for (const [body, headers] of [
      [{ origin: 'https://evil.example', data }, {}],
      // The browser's Origin header must be the origin the page claims.
      [{ origin: 'https://other.example', data }, { origin: 'https://evil.example' }],
    ] as const) {
      const res = await postBack(s.dc_api_response_uri, body, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/origin/),
      });
    }
    expect((await poll(s.session_id)).status).toBe('pending');
    // The same answer from the origin it was made for is accepted.
    const ok = await postBack(s.dc_api_response_uri, { origin: 'https://other.example', data });
    expect(ok.status).toBe(200);
  });

  it('fails a presentation addressed to the client_id instead of origin:<origin> (wrong_audience)', async () => {
    const s = await session();
    const clientId = decodeJwt(s.dc_api_request.data.request as string).client_id as string;
    const { data } = await holder.answerDcApi(s.dc_api_request, ORIGIN, [credential], clientId);
    const res = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringContaining('wrong_audience'),
    });
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason: 'wrong_audience' });
  });

  it('takes one answer: a replay to the session, or its vp_token to another session, is refused', async () => {
    const s = await session({ response_mode: 'dc_api' });
    const { data } = await holder.answerDcApi(s.dc_api_request, ORIGIN, [credential]);
    expect((await postBack(s.dc_api_response_uri, { origin: ORIGIN, data })).status).toBe(200);
    const again = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data });
    expect(await again.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/already has its response/),
    });
    const other = await session({ response_mode: 'dc_api' });
    const replayed = await postBack(other.dc_api_response_uri, { origin: ORIGIN, data });
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({
      error_description: expect.stringMatching(/presented before/),
    });
    expect((await poll(other.session_id)).status).toBe('pending');
    expect((await poll(s.session_id)).status).toBe('verified');
  });

  it('answers bad input with OAuth errors and changes nothing', async () => {
    const s = await session();
    const { data: plain } = await holder.answerDcApi(
      (await session({ response_mode: 'dc_api' })).dc_api_request,
      ORIGIN,
      [credential],
    );
    const cases: [unknown, RegExp][] = [
      [{ origin: ORIGIN, data: plain }, /encrypted response/],
      [{ origin: ORIGIN, data: { response: 'not.a.jwe' } }, /JWE/],
      [{ origin: ORIGIN, data: {} }, /no response, vp_token or error/],
      [{ origin: ORIGIN }, /data/],
    ];
    for (const [body, description] of cases) {
      const res = await postBack(s.dc_api_response_uri, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(description),
      });
    }
    const unknown = await postBack(`${f.t.baseUrl}/oid4vp/dc-api-response/nope`, {
      origin: ORIGIN,
      data: plain,
    });
    expect(await unknown.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'no such session',
    });
    expect((await poll(s.session_id)).status).toBe('pending');

    const preflight = await fetch(s.dc_api_response_uri, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    // Refused before it is read, still readable by the page's origin, still OAuth JSON.
    const form = await fetch(s.dc_api_response_uri, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: ORIGIN },
      body: JSON.stringify({ origin: ORIGIN, data: plain }),
    });
    expect(form.status).toBe(415);
    expect(form.headers.get('access-control-allow-origin')).toBe('*');
    expect(await form.json()).toMatchObject({ error: 'invalid_request' });
    expect((await poll(s.session_id)).status).toBe('pending');
  });

  it('records a wallet that declines over the DC API (OID4VP 8.5) as a failed session', async () => {
    const s = await session();
    const stream = await openEventStream(`${f.t.baseUrl}/api/login/events?state=${s.session_id}`);
    const res = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data: { error: 'access_denied' } });
    expect(res.status).toBe(200);
    expect(await stream.done).toContain('"status":"failed"');
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason: 'wallet_access_denied' });
  });

  it('answers an expired session with an error and reports it expired', async () => {
    const s = await session();
    const { data } = await holder.answerDcApi(s.dc_api_request, ORIGIN, [credential]);
    await f.sql.query(
      "update presentation_session set expires_at = now() - interval '1 second' where id = $1",
      [s.session_id],
    );
    const res = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data });
    expect(await res.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/expired/),
    });
    expect((await poll(s.session_id)).status).toBe('expired');
  });

  it('keeps the link and QR code as the fallback (direct_post.jwt); whichever answer comes first counts', async () => {
    const s = await session();
    const { data } = await holder.answerDcApi(s.dc_api_request, ORIGIN, [credential]);
    const linked = await holder.present(s.cross_device_uri, [credential]);
    expect(linked.resolved.authorizationRequestPayload.response_mode).toBe('direct_post.jwt');
    expect(linked.status).toBe(200);
    expect((await poll(s.session_id)).status).toBe('verified');
    const late = await postBack(s.dc_api_response_uri, { origin: ORIGIN, data });
    expect(await late.json()).toMatchObject({
      error_description: expect.stringMatching(/already has its response/),
    });
  });

  it('creates dc_api sessions only with valid expected_origins (problem+json)', async () => {
    const create = (body: Record<string, unknown>) =>
      f.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', ...body } as never,
      });
    // Each body is refused for the field it gets wrong, not for some other rule.
    for (const [body, field] of [
      [{ response_mode: 'dc_api.jwt' }, 'expected_origins'],
      [{ response_mode: 'dc_api.jwt', expected_origins: [] }, 'expected_origins'],
      [{ response_mode: 'dc_api.jwt', expected_origins: ['https://shop.example/'] }, 'expected_origins'],
      [{ response_mode: 'dc_api.jwt', expected_origins: ['http://shop.example'] }, 'expected_origins'],
      [{ response_mode: 'dc_api', expected_origins: ['javascript:alert(1)'] }, 'expected_origins'],
      [{ response_mode: 'direct_post.jwt', expected_origins: [ORIGIN] }, 'expected_origins'],
      [{ response_mode: 'direct_post', dc_api_request_type: 'unsigned' }, 'dc_api_request_type'],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ status: 400 });
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(field);
    }
    expect(
      (await create({ response_mode: 'dc_api', expected_origins: ['http://localhost:8080'] })).status,
    ).toBe(201);
  });
});
