import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  TransactionDataNotApprovedError,
} from '../../clients/wallet/src/index.js';
import { findChromium, type HeadlessChromium, launchChromium } from '../support/browser.js';
import { walletHttp } from '../support/holder-setup.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { exchangeOidcCode, pushedOidcSignIn, pushSignIn } from '../support/pushed-sign-in.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * An approval through the OpenID provider (RFC 9396): a relying party pushes a sign-in with
 * `authorization_details` of the approval type; the hosted page, in Chromium, shows what is to be
 * approved; the wallet approves from the QR code; the relying party's token response carries the
 * approval granted and the signed receipt.
 */
const chromium = findChromium();
const skipReason = 'reason' in chromium ? chromium.reason : undefined;
if (skipReason) console.warn(`oidc-approval: the browser test is skipped: ${skipReason}`);

const details = [
  {
    type: 'urn:credservice:approval:1',
    subject: 'PO-2026-0042',
    description: 'Laptops for the Madrid office',
    amount: { value: '12400.00', currency: 'EUR' },
    power: { function: 'Onboarding', action: 'Execute' },
  },
];

let f: TenantFixture;
let wallet: HolderWallet;
let browser: HeadlessChromium | undefined;
let rp: { url: string; close(): Promise<void> };
let client: { client_id: string; client_secret?: string | null };

beforeAll(async () => {
  f = await startTenantFixture();
  const server = http.createServer((_req, res) => res.writeHead(200).end('back at the relying party'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rp = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const created = await f.t.admin.createOidcClient({
    params: { id: f.tenant.id },
    body: {
      client_name: 'ACME Purchasing',
      redirect_uris: [rp.url],
      credential_configuration_id: 'LEARCredentialEmployee',
      claims_mapping: { given_name: ['mandatee', 'firstName'] },
    } as never,
  });
  if (created.status !== 201) throw new Error(`client: ${created.status}`);
  client = created.body;
  wallet = new HolderWallet({
    crypto: inMemoryHolderCrypto(),
    store: inMemoryCredentialStore(),
    http: walletHttp,
  });
  const offer = await mailedOffer(f.integrator, f.smtp, 'approver@acme.test');
  await wallet.receive(offer.offerUri, { txCode: offer.txCode });
  if (chromium.path) browser = await launchChromium(chromium.path);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rp?.close();
  await f?.stop();
});

describe('an approval through the OpenID provider', () => {
  it.skipIf(!chromium.path)(
    `shows the transaction, and the token response carries the receipt${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    async () => {
      const extra = { authorization_details: JSON.stringify(details) };
      const { url, verifier } = await pushedOidcSignIn(f.t.baseUrl, client, rp.url, extra);
      const page = await (browser as HeadlessChromium).context.newPage();
      await page.goto(url);
      expect(await page.locator('#approval-subject').textContent()).toBe('PO-2026-0042');
      expect(await page.locator('#approval-amount').textContent()).toBe('12400.00 EUR');
      const scanned = (await page.locator('#qr').getAttribute('data-uri')) as string;
      // The wallet does not sign a transaction it was not told to approve: nothing is sent.
      await expect(wallet.present(scanned)).rejects.toBeInstanceOf(TransactionDataNotApprovedError);
      await wallet.present(scanned, { approve: true });
      await page.waitForURL((u) => u.toString().startsWith(`${rp.url}?`), { timeout: 15_000 });
      const code = new URL(page.url()).searchParams.get('code') as string;
      await page.close();
      const token = await exchangeOidcCode(f.t.baseUrl, client, rp.url, code, verifier);
      const body = (await token.json()) as Record<string, unknown>;
      expect(token.status).toBe(200);
      expect(body).toMatchObject({
        authorization_details: [{ ...details[0], approval_id: expect.stringMatching(/^apr_/) }],
        approval_receipt: expect.stringMatching(/^ey/),
      });
    },
    60_000,
  );

  it('refuses authorization_details that are not an approval it knows, at PAR (400)', async () => {
    const refused = async (value: string) => {
      const pushed = await pushSignIn(
        f.t.baseUrl,
        {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: rp.url,
          scope: 'openid',
          nonce: 'n-1',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          authorization_details: value,
        },
        { basic: { id: client.client_id, secret: client.client_secret as string } },
      );
      expect(pushed).toMatchObject({ status: 400, json: { error: 'invalid_authorization_details' } });
    };
    await refused('not json');
    await refused(JSON.stringify([{ ...details[0], type: 'payment' }]));
    await refused(JSON.stringify([{ ...details[0], amount: { value: 'lots', currency: 'EUR' } }]));
    await refused(JSON.stringify([details[0], details[0]]));
  });
});
