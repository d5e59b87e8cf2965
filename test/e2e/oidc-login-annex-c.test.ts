import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { answerAnnexCRequest } from '../support/annex-c-wallet.js';
import { findChromium, type HeadlessChromium, launchChromium } from '../support/browser.js';
import { exchangeOidcCode, pushedOidcSignIn } from '../support/pushed-sign-in.js';
import {
  issueDirectMdoc,
  EMPLOYEE_MDOC_NAMESPACE as NS,
  type ReceivedMdoc,
  trustDeploymentCa,
} from '../support/receive-mdoc.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * The hosted login page of a client asking for the employee mdoc, in real Chromium whose
 * `navigator.credentials.get` an init script provides (as oidc-login-dc-api.test.ts does): the page
 * hands the browser the OpenID4VP and the ISO 18013-7 Annex C request in one call, keeps only those
 * the browser says it allows, and posts back the protocol the wallet answered with. Here the wallet
 * answers `org-iso-mdoc`, as an iPhone's does, and the sign-in ends at the relying party.
 */
const chromium = findChromium();
const skipReason = 'reason' in chromium ? chromium.reason : undefined;
const skipped = skipReason ? ` (skipped: ${skipReason})` : '';

/** The API as a browser offers it; `allowed` lists the protocols it takes (none: it does not say). */
const provideDcApi = (allowed?: string[]) => `
  window.DigitalCredential = class DigitalCredential {};
  ${allowed ? `DigitalCredential.userAgentAllowsProtocol = (p) => ${JSON.stringify(allowed)}.includes(p);` : ''}
  navigator.credentials.get = async (options) =>
    window.__testWallet(JSON.parse(JSON.stringify(options)), window.location.origin);`;

type Asked = { digital: { requests: { protocol: string; data: Record<string, unknown> }[] } };

let t: TestService;
let mdoc: Omit<ReceivedMdoc, 'offerId'>;
let rp: { url: string; close(): Promise<void> };
let browser: HeadlessChromium | undefined;
let client: { client_id: string; client_secret?: string | undefined };

beforeAll(async () => {
  t = await startTestService();
  const tenant = await t.admin.createTenant({ body: acmeTenant() });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status}`);
  await trustDeploymentCa(t, tenant.body.id);
  mdoc = await issueDirectMdoc(
    createIntegratorClient({ baseUrl: t.baseUrl, token: tenant.body.integrator_token }),
  );
  const server = http.createServer((_req, res) => res.writeHead(200).end('signed in'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rp = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const registered = await t.admin.createOidcClient({
    params: { id: tenant.body.id },
    body: {
      client_name: 'ACME Badge Reader',
      redirect_uris: [rp.url],
      credential_configuration_id: 'EmployeeMdoc',
      claims_mapping: { email: [NS, 'mandatee', 'email'] },
    } as never,
  });
  if (registered.status !== 201)
    throw new Error(`client: ${registered.status} ${JSON.stringify(registered.body)}`);
  client = registered.body;
  if (chromium.path) browser = await launchChromium(chromium.path);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rp?.close();
  await t?.stop();
});

/** The relying party pushes its sign-in request and sends the browser to the login page. */
async function openLoginPage(allowed?: string[]) {
  const { url, verifier, params } = await pushedOidcSignIn(t.baseUrl, client, rp.url);
  const page = await (browser as HeadlessChromium).context.newPage();
  const asked: Asked[] = [];
  await page.exposeFunction('__testWallet', async (options: Asked, origin: string) => {
    asked.push(options);
    const request = options.digital.requests.find((r) => r.protocol === 'org-iso-mdoc');
    if (!request) throw new Error('NotAllowedError: no request this wallet speaks');
    const data = await answerAnnexCRequest(request.data as never, origin, mdoc);
    return { protocol: 'org-iso-mdoc', data };
  });
  await page.addInitScript(provideDcApi(allowed));
  await page.goto(url);
  return { page, asked, verifier, params };
}

describe('OpenID Connect login with an mdoc over ISO 18013-7 Annex C', () => {
  it.skipIf(!chromium.path)(
    `passes both requests in one call and signs in with the org-iso-mdoc answer${skipped}`,
    async () => {
      const { page, asked, verifier, params } = await openLoginPage();
      await page.locator('#dc-api-button').click();
      await page.waitForURL((u) => u.toString().startsWith(`${rp.url}?`), { timeout: 15_000 });
      expect(asked).toHaveLength(1);
      expect(asked[0]?.digital.requests.map((r) => r.protocol)).toEqual([
        'openid4vp-v1-signed',
        'org-iso-mdoc',
      ]);
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
      expect(res.status).toBe(200);
      const { id_token } = (await res.json()) as { id_token: string };
      const { payload } = await jwtVerify(id_token, createRemoteJWKSet(new URL(`${t.baseUrl}/oauth2/jwks`)), {
        issuer: t.baseUrl,
        audience: client.client_id,
      });
      expect(payload).toMatchObject({ nonce: params.nonce, email: 'ana.ruiz@acme.test' });
    },
    60_000,
  );

  it.skipIf(!chromium.path)(
    `hands a browser that allows only org-iso-mdoc (Safari) that request alone${skipped}`,
    async () => {
      const { page, asked, params } = await openLoginPage(['org-iso-mdoc']);
      await page.locator('#dc-api-button').click();
      await page.waitForURL((u) => u.toString().startsWith(`${rp.url}?`), { timeout: 15_000 });
      expect(asked.map((a) => a.digital.requests.map((r) => r.protocol))).toEqual([['org-iso-mdoc']]);
      expect(new URL(page.url()).searchParams.get('state')).toBe(params.state);
      await page.close();
    },
    60_000,
  );
});
