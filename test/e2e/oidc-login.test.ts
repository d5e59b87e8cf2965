import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, type JWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import type { HolderWallet } from '../../clients/wallet/src/index.js';
import { findChromium, type HeadlessChromium, launchChromium } from '../support/browser.js';
import { employeeWallet } from '../support/console-fixture.js';
import { openEventStream, statusesOf } from '../support/event-stream.js';
import { employeePayload } from '../support/fixtures.js';
import { type ClientAuth, pushSignIn } from '../support/pushed-sign-in.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

/**
 * The verifier as an OpenID Provider, end to end: a relying party registered for a tenant pushes its
 * request (PAR, which this one-host-name server requires) and sends a real browser (Debian's
 * Chromium) to /oauth2/authorize with the request_uri; the holder's wallet answers the login
 * page's request; the page follows the session over SSE and lands on the relying party with a code,
 * which the relying party exchanges (PKCE) for an ID token it checks against /oauth2/jwks.
 */
const chromium = findChromium();
const skipReason = 'reason' in chromium ? chromium.reason : undefined;
if (skipReason) console.warn(`oidc-login: the browser test is skipped: ${skipReason}`);

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const s256 = (verifier: string) => b64url(createHash('sha256').update(verifier).digest());
const MAPPING = {
  email: ['mandatee', 'email'],
  given_name: ['mandatee', 'firstName'],
  family_name: ['mandatee', 'lastName'],
  org: ['mandator', 'organization'],
};

let t: TestService;
let tenantId: string;
let wallet: HolderWallet;
let rp: { url: string; hits: URL[]; close(): Promise<void> };
let browser: HeadlessChromium | undefined;

/** The relying party's redirect_uri: a tiny server that records what arrives. */
async function relyingParty() {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function registerClient(body: Record<string, unknown> = {}) {
  const res = await t.admin.createOidcClient({
    params: { id: tenantId },
    body: {
      client_name: 'ACME Intranet',
      redirect_uris: [rp.url],
      credential_configuration_id: 'LEARCredentialEmployee',
      claims_mapping: MAPPING,
      ...body,
    } as never,
  });
  if (res.status !== 201) throw new Error(`client: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

type Client = Awaited<ReturnType<typeof registerClient>>;

/** The request's parameters, PKCE verifier and, unpushed, its address (which this server refuses). */
function authorizeUrl(clientId: string, overrides: Record<string, string | undefined> = {}) {
  const verifier = b64url(randomBytes(32));
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: rp.url,
    scope: 'openid',
    state: b64url(randomBytes(12)),
    nonce: b64url(randomBytes(12)),
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    ...overrides,
  };
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));
  return { url: `${t.baseUrl}/oauth2/authorize?${query}`, verifier, params };
}

/** The request pushed as the relying party (Basic with its secret unless told otherwise). */
async function pushedLogin(client: Client, auth?: ClientAuth) {
  const start = authorizeUrl(client.client_id);
  const basic = { id: client.client_id, secret: client.client_secret as string };
  const pushed = await pushSignIn(t.baseUrl, start.params, auth ?? { basic });
  if (pushed.status !== 201) throw new Error(`par: ${pushed.status} ${JSON.stringify(pushed.json)}`);
  return { ...start, url: pushed.url };
}

const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

/** The login without a browser: the page by fetch (keeping its cookie), the wallet, then completion. */
async function loginByFetch(client: Client, auth?: ClientAuth) {
  const start = await pushedLogin(client, auth);
  const res = await fetch(start.url, { redirect: 'manual' });
  const html = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const sameDeviceLink = /id="same-device"[^>]*href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  // What the QR code holds: the request for a wallet on another device, whose answer is not redirected.
  const link = /id="qr"[^>]*data-uri="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  const sessionId = /data-session="([^"]+)"/.exec(html)?.[1] as string;
  if (res.status !== 200 || !link || !sameDeviceLink)
    throw new Error(`authorize: ${res.status} ${html.slice(0, 300)}`);
  const complete = (withCookie = cookie) =>
    fetch(`${t.baseUrl}/oauth2/authorize/complete?session=${sessionId}`, {
      redirect: 'manual',
      headers: withCookie ? { cookie: withCookie } : {},
    });
  return { ...start, link, sameDeviceLink, cookie, sessionId, complete };
}

const codeOf = (res: Response) =>
  new URL(res.headers.get('location') ?? '').searchParams.get('code') as string;

beforeAll(async () => {
  t = await startTestService();
  const tenant = await t.admin.createTenant({ body: acmeTenant() });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status}`);
  tenantId = tenant.body.id;
  rp = await relyingParty();
  // The holder: a wallet whose key the credential is bound to, issued directly by the integrator.
  const integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: tenant.body.integrator_token });
  const { mandatee, power } = employeePayload();
  ({ wallet } = await employeeWallet(integrator, mandatee, power));
  if (chromium.path) browser = await launchChromium(chromium.path);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rp?.close();
  await t?.stop();
});

describe('OpenID Connect login with a wallet', () => {
  it.skipIf(!chromium.path)(
    `signs the user in from a real browser${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    async () => {
      const client = await registerClient();
      const { url, verifier, params } = await pushedLogin(client);
      const page = await (browser as HeadlessChromium).context.newPage();
      await page.goto(url);
      expect(await page.title()).toBe('Sign in to ACME Intranet');
      expect(await page.locator('#qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      await page.locator('#status').getByText('Waiting for your wallet').waitFor();
      const link = await page.locator('#same-device').getAttribute('href');
      expect(link).toMatch(/^openid4vp:\/\/\?client_id=x509_hash%3A/);
      // The wallet scans the QR code (another device): the page follows the session over SSE.
      const scanned = await page.locator('#qr').getAttribute('data-uri');
      expect(scanned).not.toBe(link);
      expect((await wallet.present(scanned as string)).redirectUri).toBeUndefined();
      await page.waitForURL((u) => u.toString().startsWith(`${rp.url}?`), { timeout: 15_000 });
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(params.state);
      expect(landed.searchParams.get('iss')).toBe(t.baseUrl);
      const callbacks = rp.hits.filter((h) => h.pathname === '/callback');
      expect(callbacks.at(-1)?.searchParams.get('code')).toBe(landed.searchParams.get('code'));
      await page.close();

      const code = landed.searchParams.get('code') as string;
      const form = { grant_type: 'authorization_code', code, redirect_uri: rp.url, code_verifier: verifier };
      const res = await token(form, basic(client.client_id, client.client_secret as string));
      const tokens = (await res.json()) as { id_token: string; access_token: string; token_type: string };
      expect(res.status, JSON.stringify(tokens)).toBe(200);
      expect(tokens.token_type).toBe('Bearer');

      const discovery = (await (await fetch(`${t.baseUrl}/.well-known/openid-configuration`)).json()) as {
        issuer: string;
        jwks_uri: string;
        userinfo_endpoint: string;
      };
      const { payload, protectedHeader } = await jwtVerify(
        tokens.id_token,
        createRemoteJWKSet(new URL(discovery.jwks_uri)),
        { issuer: discovery.issuer, audience: client.client_id, algorithms: ['ES256'] },
      );
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload).toMatchObject({
        nonce: params.nonce,
        email: 'ana.ruiz@acme.test',
        given_name: 'Ana',
        family_name: 'Ruiz',
        org: 'ACME Corp',
      });
      expect(payload.sub).toEqual(expect.any(String));
      expect(payload.auth_time).toBeLessThanOrEqual(payload.iat as number);

      const info = await fetch(discovery.userinfo_endpoint, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(await info.json()).toEqual({
        sub: payload.sub,
        email: 'ana.ruiz@acme.test',
        given_name: 'Ana',
        family_name: 'Ruiz',
        org: 'ACME Corp',
      });

      // The code works once; presenting it again also revokes the access token it gave.
      const again = await token(form, basic(client.client_id, client.client_secret as string));
      expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
      const revoked = await fetch(discovery.userinfo_endpoint, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(revoked.status).toBe(401);
    },
    60_000,
  );

  it('refuses on a page what it cannot trust, and tells the client the rest (RFC 6749 4.1.2.1)', async () => {
    const client = await registerClient();
    for (const overrides of [{ client_id: 'rp_unknown' }, { redirect_uri: `${rp.url}/other` }]) {
      const res = await fetch(authorizeUrl(client.client_id, overrides).url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/data-error="invalid_(client|request)"/);
    }
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ nonce: undefined }, 'invalid_request'],
      [{ scope: 'profile email' }, 'invalid_scope'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ prompt: 'none' }, 'login_required'],
    ];
    for (const [overrides, error] of cases) {
      const { url, params } = authorizeUrl(client.client_id, overrides);
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get('location') ?? '');
      expect(`${back.origin}${back.pathname}`).toBe(rp.url);
      expect([back.searchParams.get('error'), back.searchParams.get('state')]).toEqual([error, params.state]);
    }
    const twice = await fetch(`${authorizeUrl(client.client_id).url}&scope=openid`, { redirect: 'manual' });
    expect(new URL(twice.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
  });

  it('completes only in the browser that started, once the wallet has answered, and only once', async () => {
    const client = await registerClient();
    const login = await loginByFetch(client);
    expect((await login.complete()).status).toBe(400); // the wallet has not answered yet
    await wallet.present(login.link);
    expect((await login.complete('')).status).toBe(400);
    expect((await login.complete('oidc_login_x=forged')).status).toBe(400);
    const done = await login.complete();
    expect(done.status).toBe(303);
    expect(codeOf(done)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await login.complete()).status).toBe(400);
  });

  it('same-device (HAIP 1.0): the wallet redirects with a response_code that completes only with the cookie', async () => {
    const client = await registerClient();
    const login = await loginByFetch(client);
    const stream = await openEventStream(`${t.baseUrl}/api/login/events?state=${login.sessionId}`);
    await until(
      async () => stream.text(),
      (x) => x.includes('pending'),
    );
    const answered = await wallet.present(login.sameDeviceLink);
    const back = new URL(answered.redirectUri ?? '');
    expect(back.origin + back.pathname).toBe(`${t.baseUrl}/oauth2/authorize/complete`);
    expect(back.searchParams.get('state')).toBe(login.sessionId);
    const responseCode = back.searchParams.get('code') ?? '';
    expect(responseCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const visit = (url: string, cookie?: string) =>
      fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    // Another browser (no cookie, or a forged one) follows the redirect: refused.
    expect((await visit(back.toString())).status).toBe(400);
    expect((await visit(back.toString(), `oidc_login_${login.sessionId}=forged`)).status).toBe(400);
    // The starting browser without the wallet's redirect, or with another code: refused.
    expect((await login.complete()).status).toBe(400);
    const forged = new URL(back);
    forged.searchParams.set('code', 'A'.repeat(43));
    expect((await visit(forged.toString(), login.cookie)).status).toBe(400);
    // The redirect in the browser that started: signed in, once.
    const done = await visit(back.toString(), login.cookie);
    expect(done.status).toBe(303);
    expect(codeOf(done)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await visit(back.toString(), login.cookie)).status).toBe(400);
    // The page's stream: verified only once the redirect came back, never at the wallet's answer.
    expect(statusesOf(await stream.done)).toEqual(['pending', 'awaiting_redirect', 'verified']);
  });

  it("cross-device: the QR code's answer is not redirected and takes no response_code", async () => {
    const client = await registerClient();
    const login = await loginByFetch(client);
    expect((await wallet.present(login.link)).redirectUri).toBeUndefined();
    const withCode = await fetch(
      `${t.baseUrl}/oauth2/authorize/complete?session=${login.sessionId}&code=${'A'.repeat(43)}`,
      { redirect: 'manual', headers: { cookie: login.cookie } },
    );
    expect(withCode.status).toBe(400);
    expect((await login.complete()).status).toBe(303);
  });

  it('authenticates private_key_jwt clients (RFC 7523) and burns a code on a wrong PKCE verifier', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: 'rp-1', alg: 'ES256' };
    const client = await registerClient({
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [jwk] },
    });
    expect(client.client_secret).toBeUndefined();
    const assertion = () =>
      new SignJWT({ jti: b64url(randomBytes(12)) })
        .setProtectedHeader({ alg: 'ES256', kid: 'rp-1' })
        .setIssuer(client.client_id)
        .setSubject(client.client_id)
        .setAudience(`${t.baseUrl}/oauth2/token`)
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(privateKey);
    const asClient = async (a?: string) => ({
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: a ?? (await assertion()),
    });
    const redeem = async (login: Awaited<ReturnType<typeof loginByFetch>>, extra: Record<string, string>) => {
      await wallet.present(login.link);
      const code = codeOf(await login.complete());
      const base = { grant_type: 'authorization_code', code, redirect_uri: rp.url };
      return { code, res: await token({ ...base, code_verifier: login.verifier, ...extra }) };
    };

    const wrong = await redeem(await loginByFetch(client, { form: await asClient() }), {
      ...(await asClient()),
      code_verifier: b64url(randomBytes(32)),
    });
    expect(await wrong.res.json()).toMatchObject({ error: 'invalid_grant' });

    const used = await assertion();
    const good = await redeem(await loginByFetch(client, { form: await asClient() }), await asClient(used));
    const body = (await good.res.json()) as { id_token: string };
    expect(good.res.status, JSON.stringify(body)).toBe(200);
    const { payload } = await jwtVerify(
      body.id_token,
      createRemoteJWKSet(new URL(`${t.baseUrl}/oauth2/jwks`)),
      {
        issuer: t.baseUrl,
        audience: client.client_id,
      },
    );
    expect(payload.email).toBe('ana.ruiz@acme.test');

    const replay = await redeem(await loginByFetch(client, { form: await asClient() }), await asClient(used));
    expect(replay.res.status).toBe(401);
    expect(await replay.res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('registers clients strictly, lists them without secrets and deletes them', async () => {
    const bad = [
      { redirect_uris: ['http://rp.example/callback'] },
      { redirect_uris: [`${rp.url}#fragment`] },
      { token_endpoint_auth_method: 'private_key_jwt' },
      { claims_mapping: { sub: ['mandatee', 'email'] } },
      { credential_configuration_id: 'NoSuchCredential' },
    ];
    const attempt = (body: Record<string, unknown>) =>
      t.admin.createOidcClient({
        params: { id: tenantId },
        body: {
          redirect_uris: [rp.url],
          credential_configuration_id: 'LEARCredentialEmployee',
          ...body,
        } as never,
      });
    for (const body of bad) expect((await attempt(body)).status, JSON.stringify(body)).toBe(400);
    const client = await registerClient({ token_endpoint_auth_method: 'client_secret_post' });
    const listed = await t.admin.listOidcClients({ params: { id: tenantId } });
    expect(JSON.stringify(listed.body)).toContain(client.client_id);
    expect(JSON.stringify(listed.body)).not.toContain(client.client_secret as string);
    const removed = await t.admin.deleteOidcClient({ params: { id: tenantId, clientId: client.client_id } });
    expect(removed.status).toBe(204);
    const gone = await fetch(authorizeUrl(client.client_id).url, { redirect: 'manual' });
    expect(gone.status).toBe(400);
  });
});
