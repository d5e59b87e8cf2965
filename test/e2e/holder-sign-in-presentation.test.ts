import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { runAdminCli } from '../support/admin-cli.js';
import { adminRequest } from '../support/admin-request.js';
import { untilAuditSealed } from '../support/audit-sealed.js';
import { authorizationCodeOffer as offerWithCodeGrant } from '../support/authorization-code-offer.js';
import { findChromium, type HeadlessChromium, launchChromium } from '../support/browser.js';
import { type IssuerPki, issuerPki, issueWithX5c } from '../support/issuer-x509.js';
import { openPresentationSignIn, PRESENTATION_PATH } from '../support/presentation-sign-in-page.js';
import { pushForOffer } from '../support/pushed-sign-in.js';
import { scimClient } from '../support/scim-client.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant } from '../support/test-service.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * Holders of a tenant sign in for issuance by presenting their EU PID (an SD-JWT VC of
 * `urn:eudi:pid:1`) instead of a mailed code. A PID provider made in the test (its own CA, which the
 * tenant trusts as an anchor) issues the PID to a third-party holder (@openid4vc/openid4vp); a
 * third-party wallet (@openid4vc/openid4vci) runs HAIP's authorization code flow; the hosted
 * sign-in page asks for the PID, and its family and given names must match the offer's mandatee.
 */
const chromium = findChromium();
const skipReason = 'reason' in chromium ? chromium.reason : undefined;
const PID_HOST = 'pid-provider.test';
const PID_VCT = 'urn:eudi:pid:1';
const WALLET_REDIRECT = 'https://wallet.example/callback';

const RULE = {
  credential: { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] } },
  match: [
    { claim: ['family_name'], source: 'payload', field: 'mandatee.lastName', compare: 'name' },
    { claim: ['given_name'], source: 'payload', field: 'mandatee.firstName', compare: 'name' },
  ],
};

let f: TenantFixture;
let pki: IssuerPki;
let rogue: IssuerPki;
let browser: HeadlessChromium | undefined;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
  [pki, rogue] = await Promise.all([issuerPki(PID_HOST, 'PID Provider'), issuerPki(PID_HOST, 'Rogue')]);
  const trust = createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).trustedIssuers;
  const anchor = await trust.addTrustAnchor({
    params: { id: f.tenant.id },
    body: { certificate: pki.root.pem },
  });
  if (anchor.status !== 200 && anchor.status !== 201) throw new Error(`anchor: ${anchor.status}`);
  const set = await admin('PUT', RULE);
  if (set.status !== 200) throw new Error(`rule: ${set.status} ${JSON.stringify(set.body)}`);
  if (chromium.path) browser = await launchChromium(chromium.path);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await f?.stop();
});

const admin = (method: string, body?: unknown, tenantId = f.tenant.id) =>
  adminRequest(f.t, method, `/tenants/${tenantId}/holder-sign-in-presentation`, body);

/** The holder's PID, signed under `ca` and bound to the holder's key. */
const pid = (holder: ThirdPartyHolder, names: { family_name: string; given_name: string }, ca = pki) =>
  issueWithX5c({
    signer: ca.leaf,
    x5c: [ca.leaf.base64, ca.intermediate.base64],
    payload: {
      iss: `https://${PID_HOST}`,
      vct: PID_VCT,
      iat: Math.floor(Date.now() / 1000) - 60,
      cnf: { jwk: holder.holderJwk },
      ...names,
      birthdate: '1990-05-17',
    },
    disclosable: ['family_name', 'given_name', 'birthdate'],
  });

async function authorizationCodeOffer() {
  const email = `pid-${++n}@acme.test`;
  return { email, ...(await offerWithCodeGrant(f.integrator, email)) };
}

/** The sign-in page by fetch, keeping its cookie: the QR code's and the same-device link's requests. */
const openPage = (start: string | Response) => openPresentationSignIn(f.t.baseUrl, start);

const offerStatus = async (offerId: string) =>
  (await f.sql.query('select status from issuance where id = $1', [offerId])).rows[0]?.status;

/** The sign-in's audit events, once the worker has sealed what was appended (it does so after commit). */
const signInEvents = async (offerId: string) => {
  await untilAuditSealed(f.t.admin, f.tenant.id);
  return (
    await f.sql.query(
      `select action, details from audit_event where tenant_id = $1 and subject = $2
       and action like 'issuance.holder_sign_in.%' order by created_at`,
      [f.tenant.id, offerId],
    )
  ).rows as { action: string; details: Record<string, unknown> }[];
};

describe('holder sign-in by presenting a PID', () => {
  it('is set through the admin API and the CLI, each rule checked (400 naming the field)', async () => {
    const got = await admin('GET');
    expect(got.status).toBe(200);
    // The matched claims are asked for, so the wallet discloses them.
    expect(got.body.dcql_query).toEqual({
      credentials: [{ ...RULE.credential, claims: [{ path: ['family_name'] }, { path: ['given_name'] }] }],
    });
    const cases: [unknown, string][] = [
      [{ ...RULE, match: [{ ...RULE.match[0], field: 'mandatee..lastName' }] }, 'match.0.field'],
      [{ ...RULE, match: [{ ...RULE.match[0], source: 'scim', field: 'name[x]' }] }, 'match.0.field'],
      [{ ...RULE, credential: { ...RULE.credential, format: 'ldp_vc' } }, 'credential.format'],
      [{ ...RULE, credential: { ...RULE.credential, meta: {} } }, 'credential.meta.vct_values'],
      [{ ...RULE, match: [{ ...RULE.match[0], compare: 'fuzzy' }] }, 'match.0.compare'],
    ];
    for (const [body, field] of cases) {
      const bad = await admin('PUT', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.type).toContain('application/problem+json');
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await admin('GET', undefined, 'no-such-tenant')).status).toBe(404);

    const other = await f.t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error('tenant');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pid-rule-'));
    const file = path.join(dir, 'rule.json');
    await fs.writeFile(file, JSON.stringify(RULE));
    const cli = (...args: string[]) => runAdminCli(f.t, 'holder-sign-in-presentation', ...args);
    expect((await cli('set', other.body.id, file)).body).toMatchObject({ match: RULE.match });
    expect((await cli('get', other.body.id)).body).toMatchObject({ credential: RULE.credential });
    expect((await cli('remove', other.body.id)).body).toEqual({ removed: other.body.id });
    expect((await admin('GET', undefined, other.body.id)).status).toBe(404);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('cross-device: the PID whose names match signs the holder in, audited per claim, no code mailed', async () => {
    const { email, offerUri, offerId } = await authorizationCodeOffer();
    const holder = await ThirdPartyHolder.create();
    const credential = await pid(holder, { family_name: ' RUIZ ', given_name: 'ana' });
    let sessionId = '';
    const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
      offerUri,
      async (url) => {
        const page = await openPage(url);
        sessionId = page.sessionId;
        expect(page.html).toContain('Receive your');
        expect((await page.complete()).status).toBe(400); // the wallet has not answered yet
        const answer = await holder.present(page.qr, [credential]);
        expect(answer.status).toBe(200);
        expect(answer.body.redirect_uri).toBeUndefined();
        // Another browser (no cookie, a forged one) cannot complete it.
        expect((await page.complete(undefined, '')).status).toBe(400);
        expect((await page.complete(undefined, `vci_sign_in_${sessionId}=forged`)).status).toBe(400);
        const done = await page.complete();
        expect(done.status).toBe(303);
        expect((await page.complete()).status).toBe(400); // once
        return done.headers.get('location') ?? '';
      },
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { firstName: 'Ana', lastName: 'Ruiz' } });
    expect(await offerStatus(offerId)).toBe('issued');
    expect(f.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(0);
    const [event, ...more] = await signInEvents(offerId);
    expect(more).toHaveLength(0);
    expect(event?.action).toBe('issuance.holder_sign_in.matched');
    expect(event?.details).toMatchObject({
      presentation_session: sessionId,
      offer: offerId,
      trust: { method: 'x509' },
      match: [
        { claim: ['family_name'], field: 'mandatee.lastName', result: 'matched' },
        { claim: ['given_name'], field: 'mandatee.firstName', result: 'matched' },
      ],
    });
    expect(JSON.stringify(event?.details)).not.toMatch(/ruiz|ana\b|1990/i);
  });

  it('refuses a PID of someone else: access_denied at the wallet, audited mismatched, nothing issued', async () => {
    const { offerUri, offerId } = await authorizationCodeOffer();
    const holder = await ThirdPartyHolder.create();
    const credential = await pid(holder, { family_name: 'Ruiz', given_name: 'Anabel' });
    const page = await openPage(await pushForOffer(f.t.baseUrl, offerUri, WALLET_REDIRECT, 'st-pid'));
    // Same-device: the wallet's answer redirects back here with a response_code.
    const answer = await holder.present(page.sameDevice, [credential]);
    const back = new URL(String(answer.body.redirect_uri));
    expect(back.pathname).toBe(PRESENTATION_PATH);
    expect((await page.complete()).status).toBe(400); // not without the wallet's response_code
    const done = await page.complete(back.search.slice(1));
    expect(done.status).toBe(303);
    const location = new URL(done.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(WALLET_REDIRECT);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-pid');
    expect(location.searchParams.get('code')).toBeNull();
    expect(await offerStatus(offerId)).toBe('offered');
    const [event] = await signInEvents(offerId);
    expect(event?.action).toBe('issuance.holder_sign_in.refused');
    expect(event?.details.match).toMatchObject([
      { claim: ['family_name'], result: 'matched' },
      { claim: ['given_name'], result: 'mismatched' },
    ]);
  });

  it('refuses a PID from an issuer the tenant does not trust, before any match', async () => {
    const { offerUri, offerId } = await authorizationCodeOffer();
    const holder = await ThirdPartyHolder.create();
    const credential = await pid(holder, { family_name: 'Ruiz', given_name: 'Ana' }, rogue);
    const page = await openPage(await pushForOffer(f.t.baseUrl, offerUri, WALLET_REDIRECT, 'st-pid'));
    const answer = await holder.present(page.qr, [credential]);
    expect(answer.status).toBe(400);
    expect(String(answer.body.error_description)).toMatch(/untrusted|trust/i);
    const location = new URL((await page.complete()).headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(await offerStatus(offerId)).toBe('offered');
    expect(await signInEvents(offerId)).toEqual([]);
  });

  it.skipIf(!chromium.path)(
    `shows the page in a real browser, which goes on to the wallet once the PID is presented${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    async () => {
      const { offerUri, offerId } = await authorizationCodeOffer();
      const holder = await ThirdPartyHolder.create();
      const credential = await pid(holder, { family_name: 'Ruiz', given_name: 'Ana' });
      const context = (browser as HeadlessChromium).context;
      const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
        offerUri,
        async (url) => {
          const page = await context.newPage();
          await page.goto(url);
          expect(await page.title()).toMatch(/^Receive your /);
          await page.locator('#status').getByText('Waiting for your wallet').waitFor();
          const scanned = await page.locator('#qr').getAttribute('data-uri');
          // The page follows the session over SSE and goes on to the wallet's redirect (no host there).
          const back = page.waitForRequest((r) => r.url().startsWith(`${WALLET_REDIRECT}?`), {
            timeout: 15_000,
          });
          expect((await holder.present(scanned as string, [credential])).status).toBe(200);
          const landed = (await back).url();
          await page.close();
          return landed;
        },
        { dpop: true },
      );
      expect(received.claims).toMatchObject({ mandatee: { firstName: 'Ana' } });
      expect(await offerStatus(offerId)).toBe('issued');
    },
    60_000,
  );

  it('wallet-initiated: the address selects the SCIM user, whose PID is then matched with their record', async () => {
    const email = `scim-pid-${++n}@acme.test`;
    const scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
    const created = await scim.post('/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Iker', familyName: 'Goñi' },
      emails: [{ value: email, primary: true }],
    });
    expect(created.status).toBe(201);
    const holder = await ThirdPartyHolder.create();
    // The PID spells the name decomposed and in capitals: the same name all the same.
    const credential = await pid(holder, { family_name: 'GOÑI'.normalize('NFD'), given_name: 'IKER' });
    const received = await new ThirdPartyWallet().receiveWalletInitiated(
      f.t.service.context.config.issuerUrl,
      'LEARCredentialEmployee',
      async (url) => {
        const form = await (await fetch(url)).text();
        const session = /name="session" value="([^"]+)"/.exec(form)?.[1] ?? '';
        const posted = await fetch(`${f.t.baseUrl}/oauth2/authorize/issuance/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ session, email }),
          redirect: 'manual',
        });
        const page = await openPage(posted);
        expect((await holder.present(page.qr, [credential])).status).toBe(200);
        const done = await page.complete();
        expect(done.status).toBe(303);
        return done.headers.get('location') ?? '';
      },
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { firstName: 'Iker', lastName: 'Goñi', email } });
    const [event] = await signInEvents(created.body.id);
    expect(event).toMatchObject({
      action: 'issuance.holder_sign_in.matched',
      details: { user: created.body.id },
    });
  });
});
