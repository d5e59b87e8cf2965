import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { untilAuditSealed } from '../support/audit-sealed.js';
import { authorizationCodeOffer as offerWithCodeGrant } from '../support/authorization-code-offer.js';
import { DATED_EMPLOYEE, datedEmployeePayload, registerDatedEmployee } from '../support/dated-employee.js';
import { PID_RULE } from '../support/mission/pid-sign-in.js';
import { type Person, type PidProvider, startPidProvider } from '../support/pid-provider.js';
import { openPresentationSignIn } from '../support/presentation-sign-in-page.js';
import { pushForOffer } from '../support/pushed-sign-in.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * Sign-in by presenting a PID, beyond the QR code: the PID's status is read from its provider's
 * Token Status List, so a revoked PID is refused (access_denied at the wallet, nothing issued) while
 * an unrevoked PID of the same list signs in; and the page's Digital Credentials API path (the
 * browser's own wallet, dc_api.jwt with the issuer's origin) completes a sign-in as the page's
 * script does it: the answer posted back, the verifier's redirect followed with the page's cookie.
 */
const ANA: Person = { family_name: 'Ruiz', given_name: 'Ana', birth_date: '1990-05-17' };
const REVOKED = 7;
const WALLET_REDIRECT = 'https://wallet.example/callback';

let f: TenantFixture;
let provider: PidProvider;
let origin: string;
let n = 0;

beforeAll(async () => {
  [f, provider] = await Promise.all([startTenantFixture(), startPidProvider()]);
  // Before any PID is presented: a verifier keeps a list it has read for the list's ttl.
  provider.revoke(REVOKED);
  origin = new URL(f.t.service.context.config.issuerUrl).origin;
  const service = createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken });
  await registerDatedEmployee(service);
  const anchor = await service.trustedIssuers.addTrustAnchor({
    params: { id: f.tenant.id },
    body: { certificate: provider.pki.root.pem },
  });
  if (anchor.status !== 201) throw new Error(`anchor: ${anchor.status}`);
  const rule = await service.admin.putHolderSignInPresentation({
    params: { id: f.tenant.id },
    body: PID_RULE as never,
  });
  if (rule.status !== 200) throw new Error(`rule: ${rule.status}`);
}, 120_000);
afterAll(async () => {
  await provider?.close();
  await f?.stop();
});

async function offer() {
  const email = `pid-${++n}@acme.test`;
  const payload = datedEmployeePayload(ANA, email);
  return offerWithCodeGrant(f.integrator, email, { configurationId: DATED_EMPLOYEE, payload });
}

const signInActions = async (offerId: string) => {
  await untilAuditSealed(f.t.admin, f.tenant.id);
  const { rows } = await f.sql.query(
    `select action from audit_event where tenant_id = $1 and subject = $2
     and action like 'issuance.holder_sign_in.%'`,
    [f.tenant.id, offerId],
  );
  return rows.map((r: { action: string }) => r.action);
};

describe('holder sign-in by a PID: its status, and the browser’s own wallet', () => {
  it('refuses a revoked PID: access_denied at the wallet, nothing issued, no match made', async () => {
    const { offerUri, offerId } = await offer();
    const holder = await ThirdPartyHolder.create();
    const pid = await provider.sdJwt(holder.holderJwk, ANA, REVOKED);
    const page = await openPresentationSignIn(
      f.t.baseUrl,
      await pushForOffer(f.t.baseUrl, offerUri, WALLET_REDIRECT, 'st-revoked', DATED_EMPLOYEE),
    );
    const answer = await holder.present(page.qr, [pid]);
    expect(answer.status).toBe(400);
    expect(String(answer.body.error_description)).toMatch(/revoked/);
    const location = new URL((await page.complete()).headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(WALLET_REDIRECT);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-revoked');
    expect(location.searchParams.get('code')).toBeNull();
    const issuance = await f.integrator.getIssuance({ params: { id: offerId } });
    expect(issuance.body).toMatchObject({ status: 'offered', credentials: [] });
    expect(await signInActions(offerId)).toEqual([]);
  });

  it('signs in with an unrevoked PID of the same list through the Digital Credentials API', async () => {
    const { offerUri, offerId } = await offer();
    const holder = await ThirdPartyHolder.create();
    const pid = await provider.sdJwt(holder.holderJwk, ANA, 0);
    const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
      offerUri,
      async (url) => {
        const page = await openPresentationSignIn(f.t.baseUrl, url);
        const [request] = page.dcApiRequests;
        if (!request) throw new Error('the page offers no DC API request');
        expect(request.protocol).toBe('openid4vp-v1-signed');
        expect(decodeJwt(String(request.data.request))).toMatchObject({
          expected_origins: [origin],
          response_mode: 'dc_api.jwt',
        });
        // The browser's wallet answers; the page posts the answer with its origin, as its script does.
        const { data } = await holder.answerDcApi(request, origin, [pid]);
        const posted = await fetch(page.dcApiResponseUri, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ origin, protocol: request.protocol, data }),
        });
        const body = (await posted.json()) as { redirect_uri?: string };
        expect(posted.status, JSON.stringify(body)).toBe(200);
        // The redirect carries a response_code: the sign-in completes only with it and the cookie.
        expect((await page.complete()).status).toBe(400);
        const done = await page.follow(body.redirect_uri ?? '');
        expect(done.status).toBe(303);
        return done.headers.get('location') ?? '';
      },
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { firstName: 'Ana', birthDate: ANA.birth_date } });
    expect(await signInActions(offerId)).toEqual(['issuance.holder_sign_in.matched']);
  });
});
