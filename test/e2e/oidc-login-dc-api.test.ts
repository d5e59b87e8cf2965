import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { findChromium, type HeadlessChromium, launchChromium } from '../support/browser.js';
import { issueDirectCredential } from '../support/fixtures.js';
import { exchangeOidcCode, pushedOidcSignIn } from '../support/pushed-sign-in.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * The hosted login page with the W3C Digital Credentials API (OID4VP 1.0 Appendix A, HAIP 1.0):
 * in real Chromium, an init script provides `navigator.credentials.get` and `DigitalCredential`,
 * records what the page asks for and answers with a real presentation of a third-party wallet
 * (@openid4vc/openid4vp) made in the test process; the page posts it back and the sign-in ends at
 * the relying party with a code worth an ID token. Without the API the page keeps the QR code.
 */
const chromium = findChromium();
const skipReason = 'reason' in chromium ? chromium.reason : undefined;
if (skipReason) console.warn(`oidc-login-dc-api: the browser tests are skipped: ${skipReason}`);
const skipped = skipReason ? ` (skipped: ${skipReason})` : '';

/** The Digital Credentials API as a browser with a wallet would offer it, answered by the test. */
const PROVIDE_DC_API = `
  window.DigitalCredential = class DigitalCredential {};
  navigator.credentials.get = async (options) => {
    const asked = JSON.parse(JSON.stringify(options));
    const data = await window.__testWallet(asked, window.location.origin);
    return { protocol: asked.digital.requests[0].protocol, data };
  };`;
const REMOVE_DC_API = 'delete window.DigitalCredential;';

/** What the page passed to navigator.credentials.get. */
type Asked = { digital: { requests: { protocol: string; data: Record<string, unknown> }[] } };

let t: TestService;
let holder: ThirdPartyHolder;
let credential: string;
let rp: { url: string; close(): Promise<void> };
let browser: HeadlessChromium | undefined;
let client: { client_id: string; client_secret?: string | undefined };

beforeAll(async () => {
  t = await startTestService();
  const tenant = await t.admin.createTenant({ body: acmeTenant() });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status}`);
  holder = await ThirdPartyHolder.create();
  const integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: tenant.body.integrator_token });
  credential = await issueDirectCredential(integrator, holder.holderJwk);
  const server = http.createServer((_req, res) => res.writeHead(200).end('signed in'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rp = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const registered = await t.admin.createOidcClient({
    params: { id: tenant.body.id },
    body: {
      client_name: 'ACME Intranet',
      redirect_uris: [rp.url],
      credential_configuration_id: 'LEARCredentialEmployee',
      claims_mapping: { email: ['mandatee', 'email'] },
    } as never,
  });
  if (registered.status !== 201) throw new Error(`client: ${registered.status}`);
  client = registered.body;
  if (chromium.path) browser = await launchChromium(chromium.path);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rp?.close();
  await t?.stop();
});

/** The relying party pushes its request (RFC 9126; required here) for the browser's address. */
const authorizeUrl = () => pushedOidcSignIn(t.baseUrl, client, rp.url);

describe('OpenID Connect login with the browser’s wallet (Digital Credentials API)', () => {
  it.skipIf(!chromium.path)(
    `calls navigator.credentials.get and signs the user in${skipped}`,
    async () => {
      const page = await (browser as HeadlessChromium).context.newPage();
      const asked: { options: Asked; origin: string }[] = [];
      await page.exposeFunction('__testWallet', async (options: never, origin: string) => {
        asked.push({ options, origin });
        const [request] = (options as Asked).digital.requests;
        if (!request) throw new Error('the page asked for nothing');
        return (await holder.answerDcApi(request, origin, [credential])).data;
      });
      await page.addInitScript(PROVIDE_DC_API);
      const { url, verifier, params } = await authorizeUrl();
      await page.goto(url);
      await page.locator('#dc-api-button').click();
      await page.waitForURL((u) => u.toString().startsWith(`${rp.url}?`), { timeout: 15_000 });

      expect(asked).toHaveLength(1);
      expect(asked[0]?.origin).toBe(new URL(t.baseUrl).origin);
      const requests = asked[0]?.options.digital.requests ?? [];
      expect(requests).toHaveLength(1);
      expect(requests[0]?.protocol).toBe('openid4vp-v1-signed');
      expect(decodeJwt(String(requests[0]?.data.request))).toMatchObject({
        client_id: expect.stringMatching(/^x509_hash:/),
        expected_origins: [new URL(t.baseUrl).origin],
        response_mode: 'dc_api.jwt',
        response_type: 'vp_token',
      });

      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(params.state);
      await page.close();
      const res = await exchangeOidcCode(
        t.baseUrl,
        client,
        rp.url,
        landed.searchParams.get('code') ?? '',
        verifier,
      );
      const { id_token } = (await res.json()) as { id_token: string };
      expect(res.status).toBe(200);
      const { payload } = await jwtVerify(id_token, createRemoteJWKSet(new URL(`${t.baseUrl}/oauth2/jwks`)), {
        issuer: t.baseUrl,
        audience: client.client_id,
      });
      expect(payload).toMatchObject({ nonce: params.nonce, email: 'ana.ruiz@acme.test' });
    },
    60_000,
  );

  it.skipIf(!chromium.path)(
    `a cancelled browser wallet leaves the QR code; a refused presentation says so${skipped}`,
    async () => {
      const page = await (browser as HeadlessChromium).context.newPage();
      let calls = 0;
      await page.exposeFunction('__testWallet', async (options: never, origin: string) => {
        calls += 1;
        // First the user cancels; then the wallet addresses its key binding to the client_id
        // instead of origin:<origin> (OID4VP 1.0 Appendix A.4), which the verifier must refuse.
        if (calls === 1) throw new Error('NotAllowedError: the user cancelled');
        const [request] = (options as Asked).digital.requests;
        if (!request) throw new Error('the page asked for nothing');
        const clientId = String(decodeJwt(String(request.data.request)).client_id);
        return (await holder.answerDcApi(request, origin, [credential], clientId)).data;
      });
      await page.addInitScript(PROVIDE_DC_API);
      await page.goto((await authorizeUrl()).url);
      await page.locator('#dc-api-button').click();
      await page.locator('#status').getByText('did not answer').waitFor();
      expect(await page.locator('#qr').isVisible()).toBe(true);
      expect(await page.locator('#login').getAttribute('data-state')).toBe('pending');
      await page.locator('#dc-api-button').click();
      await page.locator('#status').getByText('was not accepted').waitFor();
      expect(await page.locator('#login').getAttribute('data-state')).toBe('failed');
      expect(await page.locator('#return').isVisible()).toBe(true);
      expect(calls).toBe(2);
      await page.close();
    },
    60_000,
  );

  it.skipIf(!chromium.path)(
    `a wallet on another device that answers while the browser's is open completes the sign-in${skipped}`,
    async () => {
      const page = await (browser as HeadlessChromium).context.newPage();
      await page.addInitScript(PROVIDE_DC_API);
      const { url, params } = await authorizeUrl();
      await page.goto(url);
      const scanned = String(await page.locator('#qr').getAttribute('data-uri'));
      await page.exposeFunction('__testWallet', async () => {
        // The QR code's wallet answers (direct_post.jwt); then the user closes the browser's dialog.
        expect((await holder.present(scanned, [credential])).status).toBe(200);
        await page.locator('#status').getByText('Verified').waitFor();
        throw new Error('NotAllowedError: the user cancelled');
      });
      await page.locator('#dc-api-button').click();
      await page.waitForURL((u) => u.toString().startsWith(`${rp.url}?`), { timeout: 15_000 });
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(params.state);
      expect(landed.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.close();
    },
    60_000,
  );

  it.skipIf(!chromium.path)(
    `without the API shows the QR code and no browser wallet${skipped}`,
    async () => {
      const page = await (browser as HeadlessChromium).context.newPage();
      await page.addInitScript(REMOVE_DC_API);
      await page.goto((await authorizeUrl()).url);
      await page.locator('#status').getByText('Waiting for your wallet').waitFor();
      expect(await page.locator('#qr').isVisible()).toBe(true);
      expect(await page.locator('#qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(await page.locator('#same-device').isVisible()).toBe(true);
      expect(await page.locator('#dc-api').isHidden()).toBe(true);
      await page.close();

      // Without any init script the page offers the wallet exactly when the browser itself has the API.
      const plain = await (browser as HeadlessChromium).context.newPage();
      await plain.goto((await authorizeUrl()).url);
      await plain.locator('#status').getByText('Waiting for your wallet').waitFor();
      expect(await plain.locator('#qr').isVisible()).toBe(true);
      const native = await plain.evaluate('typeof window.DigitalCredential !== "undefined"');
      expect(await plain.locator('#dc-api').isVisible()).toBe(native);
      await plain.close();
    },
    60_000,
  );
});
