import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { adminRequest } from '../support/admin-request.js';
import { authorizationCodeOffer as offerWithCodeGrant } from '../support/authorization-code-offer.js';
import { pushForOffer } from '../support/pushed-sign-in.js';
import { scimClient } from '../support/scim-client.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { followToWallet, startTenantOpenIdProvider } from '../support/tenant-openid-provider.js';
import { acmeTenant } from '../support/test-service.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * A tenant whose holders sign in at its own OpenID provider (as with Entra ID or Okta) instead of a
 * mailed one-time code: a real provider (oidc-provider) on loopback, reached through the service's
 * guarded outbound fetch; the ID token's signature, iss, aud, exp, nonce and e-mail are checked.
 */
let f: TenantFixture;
let op: Awaited<ReturnType<typeof startTenantOpenIdProvider>>;
let n = 0;
const REDIRECT = 'https://wallet.example/callback';

beforeAll(async () => {
  f = await startTenantFixture();
  const issuerUrl = f.t.service.context.config.issuerUrl;
  op = await startTenantOpenIdProvider(`${issuerUrl}/oauth2/authorize/issuance/callback`);
  const set = await admin('PUT', f.tenant.id, {
    issuer: op.issuer,
    client_id: op.client_id,
    client_secret: op.client_secret,
  });
  expect(set.status).toBe(200);
});
afterAll(async () => {
  await f?.stop();
  await op?.close();
});

const admin = (method: string, tenantId: string, body?: unknown) =>
  adminRequest(f.t, method, `/tenants/${tenantId}/holder-sign-in-provider`, body);

const origins = () => [new URL(f.t.baseUrl).origin, op.issuer];
const nextEmail = () => `sso-${++n}-${randomBytes(3).toString('hex')}@acme.test`;

const authorizationCodeOffer = (email: string, integrator = f.integrator) =>
  offerWithCodeGrant(integrator, email);

const status = async (offerId: string) =>
  (await f.sql.query('select status from issuance where id = $1', [offerId])).rows[0]?.status;

describe('holder sign-in at the tenant’s own OpenID provider', () => {
  it('keeps the client secret sealed and never returns it; refuses a bad issuer as problem+json', async () => {
    const got = await admin('GET', f.tenant.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      issuer: op.issuer,
      client_id: op.client_id,
      email_claim: 'email',
      redirect_uri: `${f.t.service.context.config.issuerUrl}/oauth2/authorize/issuance/callback`,
      updated_at: expect.any(String),
    });
    const row = (
      await f.sql.query('select * from holder_sign_in_provider where tenant_id = $1', [f.tenant.id])
    ).rows[0];
    expect(JSON.stringify(row)).not.toContain(op.client_secret);
    const bad = await admin('PUT', f.tenant.id, {
      issuer: 'http://provider.example',
      client_id: 'x',
      client_secret: 'y',
    });
    expect(bad.status).toBe(400);
    expect(bad.type).toContain('application/problem+json');
    expect((await admin('GET', 'no-such-tenant')).status).toBe(404);
  });

  it('goes back to the mailed code when the provider is removed', async () => {
    const other = await f.t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error(`tenant: ${other.status}`);
    const set = await admin('PUT', other.body.id, {
      issuer: op.issuer,
      client_id: op.client_id,
      client_secret: op.client_secret,
      email_claim: 'upn',
    });
    expect(set.body).toMatchObject({ email_claim: 'upn' });
    expect((await admin('DELETE', other.body.id)).status).toBe(204);
    const gone = await admin('GET', other.body.id);
    expect(gone.status).toBe(404);
    expect(gone.type).toContain('application/problem+json');
    expect((await admin('DELETE', other.body.id)).status).toBe(404);
  });

  it('issues to @openid4vc/openid4vci after the holder signed in at the provider with the offer’s address', async () => {
    const email = nextEmail();
    const { offerUri, offerId } = await authorizationCodeOffer(email);
    op.signInAs(`user-${n}`, { email: email.toUpperCase(), email_verified: true });
    const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
      offerUri,
      (url) => followToWallet(url, origins()),
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { firstName: 'Ana' } });
    expect(await status(offerId)).toBe('issued');
    // No one-time code was mailed: the provider was the sign-in.
    expect(f.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(0);
  });

  it('refuses with access_denied an account whose e-mail is not the offer’s', async () => {
    const { offerUri, offerId } = await authorizationCodeOffer(nextEmail());
    op.signInAs(`other-${n}`, { email: 'someone.else@acme.test', email_verified: true });
    const back = new URL(
      await followToWallet(await pushForOffer(f.t.baseUrl, offerUri, REDIRECT, 'st-p'), origins()),
    );
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-p');
    expect(await status(offerId)).toBe('offered');
  });

  it('refuses an unverified e-mail and an ID token with another nonce', async () => {
    const email = nextEmail();
    const { offerUri, offerId } = await authorizationCodeOffer(email);
    op.signInAs(`unverified-${n}`, { email, email_verified: false });
    const unverified = new URL(
      await followToWallet(await pushForOffer(f.t.baseUrl, offerUri, REDIRECT, 'st-p'), origins()),
    );
    expect(unverified.searchParams.get('error')).toBe('access_denied');
    op.signInAs(`forged-${n}`, { email, email_verified: true });
    const forged = new URL(
      await followToWallet(await pushForOffer(f.t.baseUrl, offerUri, REDIRECT, 'st-p'), origins(), (url) =>
        url.searchParams.set('nonce', 'a-nonce-of-another-sign-in'),
      ),
    );
    expect(forged.searchParams.get('error')).toBe('access_denied');
    expect(forged.searchParams.get('code')).toBeNull();
    expect(await status(offerId)).toBe('offered');
  });

  it('refuses when the provider does not take the client secret, and when it cannot be reached', async () => {
    const other = await f.t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error(`tenant: ${other.status}`);
    const integrator = createIntegratorClient({ baseUrl: f.t.baseUrl, token: other.body.integrator_token });
    const settings = { issuer: op.issuer, client_id: op.client_id, client_secret: 'not-the-secret' };
    expect((await admin('PUT', other.body.id, settings)).status).toBe(200);
    const email = nextEmail();
    const { offerUri, offerId } = await authorizationCodeOffer(email, integrator);
    op.signInAs(`secret-${n}`, { email, email_verified: true });
    const refused = new URL(
      await followToWallet(await pushForOffer(f.t.baseUrl, offerUri, REDIRECT, 'st-p'), origins()),
    );
    expect(refused.searchParams.get('error')).toBe('access_denied');
    // A port nothing listens on: discovery fails before the holder leaves the service.
    const closed = { ...settings, issuer: 'http://127.0.0.1:9' };
    expect((await admin('PUT', other.body.id, closed)).status).toBe(200);
    const down = new URL(
      await followToWallet(await pushForOffer(f.t.baseUrl, offerUri, REDIRECT, 'st-p'), origins()),
    );
    expect(down.searchParams.get('error')).toBe('temporarily_unavailable');
    expect(down.searchParams.get('state')).toBe('st-p');
    expect(await status(offerId)).toBe('offered');
  });

  it('wallet-initiated: the address leads to the provider, whose e-mail selects the SCIM user', async () => {
    const email = nextEmail();
    const scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
    const created = await scim.post('/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Iker', familyName: 'Goñi' },
      emails: [{ value: email, primary: true }],
    });
    expect(created.status).toBe(201);
    op.signInAs(`scim-${n}`, { email, email_verified: true });
    const signIn = async (url: string) => {
      const html = await (await fetch(url)).text();
      const session = /name="session" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const posted = await fetch(`${f.t.baseUrl}/oauth2/authorize/issuance/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ session, email }),
        redirect: 'manual',
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toContain(`${op.issuer}/auth?`);
      return followToWallet(posted, origins());
    };
    const received = await new ThirdPartyWallet().receiveWalletInitiated(
      f.t.service.context.config.issuerUrl,
      'LEARCredentialEmployee',
      signIn,
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { firstName: 'Iker', lastName: 'Goñi', email } });
  });
});
