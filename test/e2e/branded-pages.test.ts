import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeePayload } from '../support/fixtures.js';
import { pushSignIn } from '../support/pushed-sign-in.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * The pages a person sees, as the started service serves them: the e-mailed offer's page and the
 * OpenID Connect login page name the tenant, the credential (its display name, not its id) and the
 * expiry, wear the tenant's logo and colour when set, escape what the tenant wrote, and keep a
 * Content-Security-Policy that allows the logo's origin and still no inline script.
 */
let f: TenantFixture;
const LOGO = 'https://cdn.acme.example/logo.png';

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const brand = (body: Record<string, unknown>) =>
  f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: body as never });

async function offerPage() {
  const res = await f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui',
      email: 'page@example.test',
    },
  });
  if (res.status !== 201) throw new Error(`offer: ${res.status}`);
  const page = await fetch(`${f.t.baseUrl}/oid4vci/v1/offer/${res.body.offer_id}`);
  return { page, html: await page.text(), expiresIn: res.body.expires_in };
}

async function loginPage() {
  const client = await f.t.admin.createOidcClient({
    params: { id: f.tenant.id },
    body: {
      client_name: 'ACME Intranet',
      redirect_uris: ['https://rp.example/cb'],
      credential_configuration_id: 'LEARCredentialEmployee',
      claims_mapping: { given_name: ['mandatee', 'firstName'] },
    } as never,
  });
  if (client.status !== 201) throw new Error(`client: ${client.status}`);
  const params = {
    response_type: 'code',
    client_id: client.body.client_id,
    redirect_uri: 'https://rp.example/cb',
    scope: 'openid',
    state: 'st',
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
  };
  const basic = { id: client.body.client_id, secret: client.body.client_secret as string };
  const pushed = await pushSignIn(f.t.baseUrl, params, { basic });
  const page = await fetch(pushed.url, { redirect: 'manual' });
  return { page, html: await page.text() };
}

/** The expiry as the pages write it: a <time> with the ISO instant, close to `seconds` from now. */
function expiry(html: string, seconds: number) {
  const at = /<time datetime="([^"]+)">[^<]*\d{4}[^<]*\d{2}:\d{2} UTC<\/time>/.exec(html)?.[1];
  expect(at).toBeDefined();
  expect(Math.abs(Date.parse(at ?? '') - (Date.now() + seconds * 1000))).toBeLessThan(60_000);
}

const imgSrc = (res: Response) =>
  /(?:^|;)\s*img-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
const scriptSrc = (res: Response) =>
  /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';

describe('pages without branding', () => {
  it('the offer page names the tenant, the credential and the expiry', async () => {
    const { page, html, expiresIn } = await offerPage();
    expect(page.status).toBe(200);
    expect(html).toContain('<title>Employee credential from ACME Corp</title>');
    expect(html).toContain('<h1>Your Employee credential</h1><p>from ACME Corp</p>');
    expect(html).toContain('<span class="tenant">ACME Corp</span>');
    expect(html).toMatch(/class="button" href="openid-credential-offer:\/\/\?credential_offer_uri=/);
    expiry(html, expiresIn);
    expect(html).not.toContain('class="logo"');
    expect(imgSrc(page)).not.toContain('cdn.acme.example');
  });

  it('the login page names the tenant and the credential by its display name, and the expiry', async () => {
    const { page, html } = await loginPage();
    expect(page.status).toBe(200);
    expect(html).toContain('<span class="tenant">ACME Corp</span>');
    expect(html).toContain('present your Employee credential.');
    expect(html).not.toContain('present your LEARCredentialEmployee');
    expiry(html, 300);
  });
});

describe('pages with branding', () => {
  beforeAll(async () => {
    const res = await brand({
      name: 'ACME <b>&</b> Sons',
      branding: { logo_uri: LOGO, primary_color: '#f0e68c' },
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['offer', offerPage],
    ['login', loginPage],
  ])(
    'the %s page wears the logo and colour, escapes the name, and its CSP allows only the logo origin',
    async (_which, open) => {
      const { page, html } = await open();
      expect(html).toContain(`<img class="logo" src="${LOGO}"`);
      expect(html).toContain('ACME &lt;b&gt;&amp;&lt;/b&gt; Sons');
      expect(html).not.toContain('<b>&</b>');
      // A light colour gets dark text.
      expect(html).toContain(':root { --brand: #f0e68c; --on-brand: #111111; }');
      expect(imgSrc(page).split(' ')).toContain('https://cdn.acme.example');
      expect(scriptSrc(page)).not.toContain('unsafe-inline');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    },
  );
});
