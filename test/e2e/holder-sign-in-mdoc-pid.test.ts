import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { untilAuditSealed } from '../support/audit-sealed.js';
import { authorizationCodeOffer as offerWithCodeGrant } from '../support/authorization-code-offer.js';
import { DATED_EMPLOYEE, datedEmployeePayload, registerDatedEmployee } from '../support/dated-employee.js';
import { deviceKeyPair } from '../support/mdoc-issuer.js';
import { answerWithMdoc } from '../support/mdoc-wallet.js';
import {
  PID_DOCTYPE as NS,
  type Person,
  type PidProvider,
  startPidProvider,
} from '../support/pid-provider.js';
import { openPresentationSignIn } from '../support/presentation-sign-in-page.js';
import { pushForOffer } from '../support/pushed-sign-in.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * Holders sign in by presenting their PID as an ISO mdoc (doctype and namespace
 * `eu.europa.ec.eudi.pid.1`): a PID provider made in the test signs it under an IACA the tenant
 * trusts; the rule asks for it by doctype and matches its elements by [namespace, element] with the
 * offer's mandatee, birth date included (a full-date in CBOR, its text once verified). The holder's
 * wallet answers with @owf/mdoc and @openid4vc/openid4vp.
 */
const RULE = {
  credential: { id: 'pid', format: 'mso_mdoc', meta: { doctype_value: NS } },
  match: [
    { claim: [NS, 'family_name'], source: 'payload', field: 'mandatee.lastName', compare: 'name' },
    { claim: [NS, 'given_name'], source: 'payload', field: 'mandatee.firstName', compare: 'name' },
    { claim: [NS, 'birth_date'], source: 'payload', field: 'mandatee.birthDate', compare: 'date' },
  ],
};
const ANA: Person = { family_name: 'Ruiz', given_name: 'Ana', birth_date: '1990-05-17' };
const DISCLOSE = { [NS]: ['family_name', 'given_name', 'birth_date'] };

let f: TenantFixture;
let provider: PidProvider;
let service: ReturnType<typeof createClient>;
let n = 0;

beforeAll(async () => {
  [f, provider] = await Promise.all([startTenantFixture(), startPidProvider()]);
  service = createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken });
  await registerDatedEmployee(service);
  const anchor = await service.trustedIssuers.addTrustAnchor({
    params: { id: f.tenant.id },
    body: { certificate: provider.mdoc.iaca.pem },
  });
  if (anchor.status !== 201) throw new Error(`anchor: ${anchor.status}`);
  const set = await putRule(RULE);
  if (set.status !== 200) throw new Error(`rule: ${set.status} ${JSON.stringify(set.body)}`);
}, 120_000);
afterAll(async () => {
  await provider?.close();
  await f?.stop();
});

const putRule = (body: unknown) =>
  service.admin.putHolderSignInPresentation({ params: { id: f.tenant.id }, body: body as never });

async function offer() {
  const email = `mdoc-pid-${++n}@acme.test`;
  const payload = datedEmployeePayload(ANA, email);
  return offerWithCodeGrant(f.integrator, email, { configurationId: DATED_EMPLOYEE, payload });
}

/** The holder's mdoc PID for `person`, bound to a fresh device key. */
async function mdocPid(person: Person) {
  const device = deviceKeyPair();
  return {
    credential: await provider.mdocPid(device.publicJwk, person),
    devicePrivateKey: device.privateJwk,
  };
}

const signInEvent = async (offerId: string) => {
  await untilAuditSealed(f.t.admin, f.tenant.id);
  const { rows } = await f.sql.query(
    `select action, details from audit_event where tenant_id = $1 and subject = $2
     and action like 'issuance.holder_sign_in.%'`,
    [f.tenant.id, offerId],
  );
  return rows[0] as { action: string; details: Record<string, unknown> } | undefined;
};

describe('holder sign-in by presenting an mdoc PID', () => {
  it('asks for the doctype with the matched elements; an mdoc claim that is not [namespace, element] is a 400 naming it', async () => {
    const got = await service.admin.getHolderSignInPresentation({ params: { id: f.tenant.id } });
    expect(got.body).toMatchObject({
      dcql_query: {
        credentials: [{ ...RULE.credential, claims: RULE.match.map((m) => ({ path: m.claim })) }],
      },
    });
    const cases: [unknown, string][] = [
      [{ ...RULE, match: [{ ...RULE.match[0], claim: ['family_name'] }] }, 'match.0.claim'],
      [{ ...RULE, match: [{ ...RULE.match[0], claim: [NS, 'names', 0] }] }, 'match.0.claim'],
      [{ ...RULE, credential: { ...RULE.credential, claims: [{ path: [NS] }] } }, 'credential.claims.0.path'],
      [{ ...RULE, credential: { ...RULE.credential, meta: {} } }, 'credential.meta.doctype_value'],
    ];
    for (const [body, field] of cases) {
      const bad = await putRule(body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      const errors = (bad.body as { errors: { field: string }[] }).errors;
      expect(errors.map((e) => e.field)).toContain(field);
    }
  });

  it('the mdoc PID whose names and birth date match signs the holder in; the wallet gets its credential', async () => {
    const { offerUri, offerId } = await offer();
    const holder = await ThirdPartyHolder.create();
    const pid = await mdocPid({ ...ANA, family_name: 'RUIZ' });
    const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
      offerUri,
      async (url) => {
        const page = await openPresentationSignIn(f.t.baseUrl, url);
        expect(page.dcApiRequests.map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc']);
        const answer = await answerWithMdoc(holder, page.qr, 'pid', pid, DISCLOSE);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const done = await page.complete();
        expect(done.status).toBe(303);
        return done.headers.get('location') ?? '';
      },
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { lastName: 'Ruiz', birthDate: ANA.birth_date } });
    expect(await signInEvent(offerId)).toMatchObject({
      action: 'issuance.holder_sign_in.matched',
      details: {
        trust: { method: 'x509' },
        match: RULE.match.map((m) => ({ claim: m.claim, result: 'matched' })),
      },
    });
  });

  it('refuses an mdoc PID of another birth date: access_denied at the wallet, nothing issued', async () => {
    const { offerUri, offerId } = await offer();
    const holder = await ThirdPartyHolder.create();
    const pid = await mdocPid({ ...ANA, birth_date: '1991-05-17' });
    const page = await openPresentationSignIn(
      f.t.baseUrl,
      await pushForOffer(f.t.baseUrl, offerUri, 'https://wallet.example/callback', 'st-mdoc', DATED_EMPLOYEE),
    );
    expect((await answerWithMdoc(holder, page.qr, 'pid', pid, DISCLOSE)).status).toBe(200);
    const location = new URL((await page.complete()).headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();
    const issuance = await f.integrator.getIssuance({ params: { id: offerId } });
    expect(issuance.body).toMatchObject({ status: 'offered', credentials: [] });
    expect((await signInEvent(offerId))?.details.match).toMatchObject([
      { result: 'matched' },
      { result: 'matched' },
      { claim: [NS, 'birth_date'], result: 'mismatched' },
    ]);
  });
});
