import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
} from '../../clients/wallet/src/index.js';
import { qrCodeSvg } from '../../server/http/qr-code.js';
import { employeePayload } from '../support/fixtures.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * HAIP 1.0 section 4.2 offers: `haip-vci://` beside `openid-credential-offer://`, chosen per
 * request (`offer_uri_scheme`) or as the tenant's default (admin `offer_uri_scheme`). The API's
 * credential_offer_uri, the offer page's link and QR code and the offer mail all carry the chosen
 * scheme, and wallets (one built on @openid4vc/openid4vci, and clients/wallet) redeem a haip-vci:// link.
 */
let f: TenantFixture;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const location = (offerUri: string) => decodeURIComponent(offerUri.split('credential_offer_uri=')[1] ?? '');

/** The text of a mail as the reader sees it: quoted-printable soft breaks and escapes undone. */
const readable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** An offer mailed (offer link and tx_code) and returned (ui), with the scheme asked for if any. */
async function offer(scheme?: 'haip-vci' | 'openid-credential-offer') {
  const email = `haip-vci-${++n}@example.test`;
  const res = await f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui,email',
      email,
      ...(scheme ? { offer_uri_scheme: scheme } : {}),
    },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  const mails = async (what: RegExp) =>
    readable(
      (await f.smtp.waitForMail((m) => m.to.includes(email) && what.test(readable(m.raw)), 30_000)).raw,
    );
  const offerMail = await mails(/\/oid4vci\/v1\/offer\//);
  const txCode = /activation code is: (\d{6})/.exec(await mails(/activation code is/))?.[1] ?? '';
  return { offerId: res.body.offer_id, offerUri: res.body.credential_offer_uri, offerMail, txCode };
}

/** The offer page's same-device link, and whether its QR code is exactly that link. */
async function offerPage(offerId: string) {
  const html = await (await fetch(`${f.t.baseUrl}/oid4vci/v1/offer/${offerId}`)).text();
  const href = /<a class="button" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
  const qr = await qrCodeSvg(href);
  return { href, qrIsTheLink: html.includes(qr) };
}

describe('haip-vci:// offers', () => {
  it('per request: the API, the page, its QR code and the mail carry haip-vci://, and a third-party wallet redeems it', async () => {
    const o = await offer('haip-vci');
    expect(o.offerUri).toMatch(/^haip-vci:\/\/\?credential_offer_uri=/);
    expect(location(o.offerUri)).toBe(
      `${f.t.service.context.config.issuerUrl}/oid4vci/v1/credential-offer/${o.offerId}`,
    );
    const page = await offerPage(o.offerId);
    expect(page.href).toBe(o.offerUri);
    expect(page.qrIsTheLink).toBe(true);
    expect(o.offerMail).toContain(o.offerUri);
    const received = await new ThirdPartyWallet().receive(o.offerUri, o.txCode);
    expect(received.claims).toMatchObject({ mandatee: { firstName: 'Ana' } });
    const { rows } = await f.sql.query('select status, offer_uri_scheme from issuance where id = $1', [
      o.offerId,
    ]);
    expect(rows[0]).toEqual({ status: 'issued', offer_uri_scheme: 'haip-vci' });
  });

  it('without a choice, the tenant’s default: openid-credential-offer, then haip-vci once set', async () => {
    const plain = await offer();
    expect(plain.offerUri).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    expect((await offerPage(plain.offerId)).href).toBe(plain.offerUri);

    const set = await f.t.admin.updateTenant({
      params: { id: f.tenant.id },
      body: { offer_uri_scheme: 'haip-vci' },
    });
    expect(set.body).toMatchObject({ offer_uri_scheme: 'haip-vci' });
    try {
      const byDefault = await offer();
      expect(byDefault.offerUri).toMatch(/^haip-vci:\/\//);
      const page = await offerPage(byDefault.offerId);
      expect([page.href, page.qrIsTheLink]).toEqual([byDefault.offerUri, true]);
      expect(byDefault.offerMail).toContain(byDefault.offerUri);
      // A request still chooses for itself.
      const chosen = await offer('openid-credential-offer');
      expect(chosen.offerUri).toMatch(/^openid-credential-offer:\/\//);
      expect((await offerPage(chosen.offerId)).href).toBe(chosen.offerUri);
      // An offer keeps the scheme it was made with when the tenant changes its default.
      await f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: { offer_uri_scheme: null } });
      expect((await offerPage(byDefault.offerId)).href).toMatch(/^haip-vci:\/\//);
      // Our own wallet (clients/wallet) opens it as well.
      const ours = new HolderWallet({
        crypto: inMemoryHolderCrypto(),
        store: inMemoryCredentialStore(),
        http: { allowHttp: true },
      });
      const [stored] = await ours.receive(byDefault.offerUri, { txCode: byDefault.txCode });
      expect(stored?.claims).toMatchObject({ mandatee: { firstName: 'Ana' } });
      expect((await offer()).offerUri).toMatch(/^openid-credential-offer:\/\//);
    } finally {
      await f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: { offer_uri_scheme: null } });
    }
  });

  it('refuses an unknown scheme, and a scheme without an offer, as problems that create nothing', async () => {
    const count = async () =>
      (await f.sql.query('select count(*)::int as n from issuance where tenant_id = $1', [f.tenant.id]))
        .rows[0].n as number;
    const before = await count();
    const unknown = await fetch(`${f.t.baseUrl}/api/v1/issuances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.tenant.integrator_token}` },
      body: JSON.stringify({
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'ui',
        email: 'x@example.test',
        offer_uri_scheme: 'openid4vp',
      }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(await unknown.json())).toContain('offer_uri_scheme');
    const direct = await f.integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'direct',
        offer_uri_scheme: 'haip-vci',
      },
    });
    expect(direct.status).toBe(400);
    expect(JSON.stringify(direct.body)).toContain('offer_uri_scheme');
    const tenant = await f.t.admin.updateTenant({
      params: { id: f.tenant.id },
      body: { offer_uri_scheme: 'openid4vp' as never },
    });
    expect(tenant.status).toBe(400);
    expect(JSON.stringify(tenant.body)).toContain('offer_uri_scheme');
    expect(await count()).toBe(before);
    const now = await f.t.admin.getTenant({ params: { id: f.tenant.id } });
    expect(now.body).toMatchObject({ offer_uri_scheme: null });
  });
});
