import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerCredentialRequest } from '../support/bearer-credential-request.js';
import { approverProvisioning } from '../support/fixtures.js';
import { scimClient } from '../support/scim-client.js';
import type { CaughtMail } from '../support/smtp-catcher.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant } from '../support/test-service.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * Wallet-initiated issuance (OID4VCI 1.0 section 5.1.2; HAIP 1.0 section 4.1): no offer. The wallet
 * pushes its request with the configuration's scope and no issuer_state; the hosted page asks the
 * holder's address, a one-time code is mailed when the address is the primary e-mail of one SCIM
 * user whose tenant provisions that configuration, and the credential issued is that user's, as
 * provisioning builds it. Unknown addresses get the same page and no mail.
 */
let f: TenantFixture;
let scim: ReturnType<typeof scimClient>;
let n = 0;
const REDIRECT = 'https://wallet.example/callback';
const CONFIGURATION = 'LEARCredentialEmployee';

beforeAll(async () => {
  f = await startTenantFixture();
  scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
  // A second configuration with a scope of its own, which no tenant here provisions.
  const badge = await f.t.admin.putCredentialConfiguration({
    params: { configurationId: 'AccessBadge' },
    body: {
      payload_schema: { type: 'object', properties: { level: { type: 'integer' } } },
      selectively_disclosable: [],
      validity_seconds: 3600,
      display: [{ locale: 'en', name: 'Access badge' }],
      claims: [],
    },
  });
  if (badge.status !== 200) throw new Error(`configuration: ${badge.status}`);
});
afterAll(async () => {
  await f?.stop();
});

const nextEmail = () => `wallet-init-${++n}-${randomBytes(3).toString('hex')}@acme.test`;
const issuerUrl = () => f.t.service.context.config.issuerUrl;

async function provisionUser(email: string, givenName = 'Lucía', familyName = 'Pérez') {
  const created = await scim.post('/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: email,
    name: { givenName, familyName },
    emails: [{ value: email, primary: true }],
  });
  expect(created.status).toBe(201);
  // Provisioning mails the user an offer and its tx_code (the tenant delivers by e-mail): let those
  // arrive first, so that the sign-in's code is told apart as the mail after them.
  await f.smtp.waitForMail((m) => m.to.includes(email) && isCodeMail(m), 15_000);
  return created.body.id as string;
}

const mailsTo = (email: string) =>
  f.smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
const isCodeMail = (m: CaughtMail) => /code is: \d{6}/.test(m.raw);

/** The holder's browser: the page, the address form, then the code mailed after it (if any). */
async function giveAddress(authorizationRequestUrl: string, typed: string) {
  const page = await fetch(authorizationRequestUrl, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  expect(html).toContain('name="email"');
  const session = /name="session" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const before = mailsTo(typed).filter(isCodeMail).length;
  const res = await form(`${f.t.baseUrl}/oauth2/authorize/issuance/email`, { session, email: typed });
  const codePage = await res.text();
  return { session, before, status: res.status, codePage };
}

async function mailedCode(email: string, before: number) {
  await f.smtp.waitForMail(() => mailsTo(email).filter(isCodeMail).length > before, 15_000);
  const mail = mailsTo(email).filter(isCodeMail)[before];
  return /code is: (\d{6})/.exec(mail?.raw ?? '')?.[1] ?? '';
}

const form = (url: string, body: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
    redirect: 'manual',
  });

const postCode = (session: string, oneTimeCode: string) =>
  form(`${f.t.baseUrl}/oauth2/authorize/issuance`, { session, one_time_code: oneTimeCode });

const signInAs = (email: string) => async (url: string) => {
  const { session, before } = await giveAddress(url, email);
  const done = await postCode(session, await mailedCode(email, before));
  expect(done.status).toBe(303);
  return done.headers.get('location') ?? '';
};

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A wallet-initiated PAR as a wallet sends it: scope, PKCE, no issuer_state. */
async function par(scope = CONFIGURATION) {
  const p = pkce();
  const res = await form(`${f.t.baseUrl}/oauth2/par`, {
    response_type: 'code',
    client_id: 'wallet-1',
    redirect_uri: REDIRECT,
    scope,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    state: 'st-w',
  });
  const json = (await res.json()) as { request_uri: string };
  expect(res.status, JSON.stringify(json)).toBe(201);
  const url = `${f.t.baseUrl}/oauth2/authorize?${new URLSearchParams({ client_id: 'wallet-1', request_uri: json.request_uri })}`;
  return { url, verifier: p.verifier };
}

const token = (code: string, verifier: string) =>
  form(`${f.t.baseUrl}/oauth2/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });

const userRow = async (id: string) =>
  (await f.sql.query('select issuance_id, credential_payload_hash from scim_user where id = $1', [id]))
    .rows[0];
const issuanceStatus = async (id: string) =>
  (await f.sql.query('select status from issuance where id = $1', [id])).rows[0]?.status;
const issuanceCount = async () =>
  Number(
    (await f.sql.query('select count(*) from issuance where tenant_id = $1', [f.tenant.id])).rows[0].count,
  );

/** Five wrong codes: four pages with attempts left, then access_denied at the wallet's redirect. */
async function exhaust(session: string, wrongCode: string) {
  for (let i = 1; i < 5; i++) {
    const wrong = await postCode(session, wrongCode);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(`${5 - i} attempts left`);
  }
  const fifth = await postCode(session, wrongCode);
  expect(fifth.status).toBe(303);
  return new URL(fifth.headers.get('location') ?? '');
}

describe('wallet-initiated issuance by the holder’s e-mail address', () => {
  it('issues the SCIM user’s current credential to @openid4vc/oauth2 + openid4vci, replacing the provisioned offer', async () => {
    const email = nextEmail();
    const userId = await provisionUser(email);
    const provisioned = (await userRow(userId)).issuance_id as string;
    expect(await issuanceStatus(provisioned)).toBe('offered');
    // The directory changes the user after provisioning: the credential must say what it says now.
    const ext = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
    const renamed = await scim.put(`/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ext],
      userName: email,
      name: { givenName: 'Lucía María', familyName: 'Pérez' },
      emails: [{ value: email, primary: true }],
    });
    expect(renamed.status).toBe(200);
    const current = (await userRow(userId)).issuance_id as string;

    const received = await new ThirdPartyWallet().receiveWalletInitiated(
      issuerUrl(),
      CONFIGURATION,
      signInAs(email.toUpperCase()),
      { dpop: true },
    );
    expect(received.tokenType).toBe('DPoP');
    expect(received.claims).toMatchObject({
      vct: `${issuerUrl()}/credential-types/LEARCredentialEmployee`,
      mandatee: { firstName: 'Lucía María', lastName: 'Pérez', email },
      mandator: { organization: 'ACME Corp' },
      power: [{ function: 'Employee', action: ['Identify'] }],
    });
    const after = await userRow(userId);
    expect(after.issuance_id).not.toBe(current);
    expect(await issuanceStatus(after.issuance_id)).toBe('issued');
    expect(await issuanceStatus(current)).toBe('withdrawn');
    const state = await scim.get(`/Users/${userId}`);
    expect(state.body['urn:credservice:params:scim:schemas:extension:credential:2.0:User']).toMatchObject({
      status: 'valid',
    });
  });

  it('builds the credential as provisioning does: the tenant’s mappings and its groups’ powers', async () => {
    // Direct delivery: provisioning mails nothing, and the user's first credential is already issued.
    const other = await f.t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
    if (other.status !== 201) throw new Error(`tenant: ${other.status}`);
    const provisioning = await f.t.admin.putProvisioning({
      params: { id: other.body.id },
      body: approverProvisioning(CONFIGURATION),
    });
    expect(provisioning.status).toBe(200);
    const otherScim = scimClient(f.t.baseUrl, other.body.id, other.body.scim_token);
    const email = nextEmail();
    const user = await otherScim.post('/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Ane', familyName: 'Etxeberria' },
      emails: [{ value: email, primary: true }],
    });
    expect(user.status).toBe(201);
    const group = await otherScim.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Approvers',
      members: [{ value: user.body.id }],
    });
    expect(group.status).toBe(201);
    const held = await f.sql.query(
      "select c.id from issued_credential c join scim_user u on u.issuance_id = c.issuance_id where u.id = $1 and c.status = 'valid'",
      [user.body.id],
    );
    expect(held.rows).toHaveLength(1);
    const received = await new ThirdPartyWallet().receiveWalletInitiated(
      issuerUrl(),
      CONFIGURATION,
      signInAs(email),
    );
    expect(received.claims).toMatchObject({
      mandatee: { firstName: 'Ane', lastName: 'Etxeberria', email },
      power: [
        { function: 'Employee', action: ['Identify'] },
        { function: 'Purchasing', action: ['Approve'] },
      ],
    });
    // One live credential per user: the directly delivered one is revoked, as a renewal does.
    const previous = await f.sql.query('select status from issued_credential where id = $1', [
      held.rows[0].id,
    ]);
    expect(previous.rows[0].status).toBe('revoked');
  });

  it('answers an unknown address like a known one, mails nothing, and ends in access_denied', async () => {
    const known = nextEmail();
    await provisionUser(known);
    const unknown = nextEmail();
    const issuances = await issuanceCount();
    const a = await giveAddress((await par()).url, unknown);
    const b = await giveAddress((await par()).url, known);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    // The same page but for the (masked) address and the session.
    const strip = (html: string, email: string, session: string) =>
      html
        .replace(email.replace(/^(.)[^@]*/, '$1***'), 'ADDRESS')
        .replace(session, 'SESSION')
        .replace(/<time[^>]*>[^<]*<\/time>/, 'TIME');
    expect(strip(a.codePage, unknown, a.session)).toBe(strip(b.codePage, known, b.session));
    expect(a.codePage).toContain('is known to us, we sent a one-time code');
    await mailedCode(known, b.before);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(mailsTo(unknown)).toHaveLength(0);
    const denied = await exhaust(a.session, '123456');
    expect(denied.origin + denied.pathname).toBe(REDIRECT);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('st-w');
    expect(await issuanceCount()).toBe(issuances);
  });

  it('mails nothing when the address is a user of two tenants issuing the same credential (ambiguous)', async () => {
    const email = nextEmail();
    await provisionUser(email);
    const other = await f.t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error(`tenant: ${other.status}`);
    const otherScim = scimClient(f.t.baseUrl, other.body.id, other.body.scim_token);
    const twin = await otherScim.post('/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Lucía', familyName: 'Pérez' },
      emails: [{ value: email, primary: true }],
    });
    expect(twin.status).toBe(201);
    await f.smtp.waitForMail(() => mailsTo(email).filter(isCodeMail).length >= 2, 15_000);
    const issuances = await issuanceCount();
    const { session, before, codePage } = await giveAddress((await par()).url, email);
    expect(codePage).toContain('is known to us, we sent a one-time code');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(mailsTo(email).filter(isCodeMail)).toHaveLength(before);
    const denied = await exhaust(session, '123456');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(await issuanceCount()).toBe(issuances);
  });

  it('bounds wrong codes per sign-in and per address: no more codes, nothing issued', async () => {
    const email = nextEmail();
    const userId = await provisionUser(email);
    const before = await userRow(userId);
    const { session, before: count } = await giveAddress((await par()).url, email);
    const right = await mailedCode(email, count);
    const denied = await exhaust(session, right === '000000' ? '111111' : '000000');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    // The sign-in is over: the right code no longer helps.
    expect((await postCode(session, right)).status).toBe(400);
    // A new sign-in for the same address gets no new code while the address is locked.
    const again = await giveAddress((await par()).url, email);
    expect(again.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(mailsTo(email).filter(isCodeMail)).toHaveLength(again.before);
    expect(await userRow(userId)).toEqual(before);
  });

  it('ignores unknown scope values, and of several configurations gives the one the holder’s tenant issues', async () => {
    const email = nextEmail();
    await provisionUser(email);
    const { url, verifier } = await par(`openid NoSuchCredential AccessBadge ${CONFIGURATION}`);
    const redirect = new URL(await signInAs(email)(url));
    const res = await token(redirect.searchParams.get('code') ?? '', verifier);
    const tokens = (await res.json()) as { access_token: string; scope: string };
    // RFC 6749 section 5.1: the scope granted names the one configuration the holder gets.
    expect([res.status, tokens.scope]).toEqual([200, CONFIGURATION]);
    const badge = await bearerCredentialRequest(f.t.baseUrl, issuerUrl(), tokens.access_token, 'AccessBadge');
    expect(await badge.json()).toMatchObject({ error: 'unknown_credential_configuration' });
    const employee = await bearerCredentialRequest(
      f.t.baseUrl,
      issuerUrl(),
      tokens.access_token,
      CONFIGURATION,
    );
    expect(employee.status).toBe(200);
    // No known scope at all: invalid_scope, and nothing to sign in to.
    const none = await form(`${f.t.baseUrl}/oauth2/par`, {
      response_type: 'code',
      client_id: 'wallet-1',
      redirect_uri: REDIRECT,
      scope: 'openid NoSuchCredential',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect([none.status, ((await none.json()) as { error: string }).error]).toEqual([400, 'invalid_scope']);
  });

  it('takes the one-time code and the authorization code once each', async () => {
    const email = nextEmail();
    await provisionUser(email);
    const { url, verifier } = await par();
    const { session, before } = await giveAddress(url, email);
    const oneTimeCode = await mailedCode(email, before);
    const done = await postCode(session, oneTimeCode);
    expect(done.status).toBe(303);
    const redirect = new URL(done.headers.get('location') ?? '');
    expect(redirect.searchParams.get('iss')).toBe(issuerUrl());
    const code = redirect.searchParams.get('code') ?? '';
    const reused = await postCode(session, oneTimeCode);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('invalid_request');
    expect((await token(code, verifier)).status).toBe(200);
    expect(await (await token(code, verifier)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses with access_denied a user deactivated after the code was mailed, and a second address', async () => {
    const email = nextEmail();
    const userId = await provisionUser(email);
    const { session, before } = await giveAddress((await par()).url, email);
    const oneTimeCode = await mailedCode(email, before);
    const again = await form(`${f.t.baseUrl}/oauth2/authorize/issuance/email`, {
      session,
      email: nextEmail(),
    });
    expect(again.status).toBe(400);
    const off = await scim.patch(`/Users/${userId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.status).toBe(204);
    const issuances = await issuanceCount();
    const done = await postCode(session, oneTimeCode);
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
    expect(await issuanceCount()).toBe(issuances);
  });
});
