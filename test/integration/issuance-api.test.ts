import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import type { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant, type TestService } from '../support/test-service.js';

let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let integrator: ReturnType<typeof createIntegratorClient>;
let sql: pg.Client;

let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
  ({ t, smtp, integrator, sql } = f);
});
afterAll(() => f.stop());

const counts = async () => {
  const { rows } = await sql.query(
    `select (select count(*) from issuance)::int as issuances, (select count(*) from mail_message)::int as mails,
            (select count(*) from issued_credential)::int as credentials, (select count(*) from outbox_message)::int as outbox`,
  );
  return rows[0];
};

describe('POST /api/v1/issuances', () => {
  it('creates an offer whose URI points at the offer endpoint, and mails the tx_code', async () => {
    const res = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'ui',
        email: 'ana@example.test',
      },
    });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    const location = `${t.service.context.config.issuerUrl}/oid4vci/v1/credential-offer/${res.body.offer_id}`;
    expect(res.body.credential_offer_uri).toBe(
      `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(location)}`,
    );
    const offer = await (await fetch(location)).json();
    expect(offer).toMatchObject({
      credential_issuer: t.service.context.config.issuerUrl,
      credential_configuration_ids: ['LEARCredentialEmployee'],
      grants: {
        'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
          'pre-authorized_code': expect.any(String),
          tx_code: { input_mode: 'numeric', length: 6 },
        },
      },
    });
    const mail = await smtp.waitForMail((m) => m.to.includes('ana@example.test'));
    expect(mail?.raw).toMatch(/Your activation code is: \d{6}/);
  });

  it.each([
    ['an unknown configuration', { credential_configuration_id: 'Nope' }, 'credential_configuration_id'],
    ['a bad payload', { payload: { mandatee: { firstName: '' } } }, 'payload.mandator'],
    ['a bad e-mail', { email: 'not-an-address' }, 'email'],
    ['an unknown delivery mode', { delivery: 'pigeon' }, 'delivery'],
    ['an unknown grant type', { grant_type: 'implicit' }, 'grant_type'],
    ['a missing e-mail for ui delivery', { email: undefined }, 'email'],
  ])('refuses %s with a 400 naming the field, storing and sending nothing', async (_what, change, field) => {
    const before = await counts();
    const body = {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui',
      email: 'x@example.test',
      ...change,
    };
    const typed = await integrator.createIssuance({ body: body as never });
    expect(typed.status).toBe(400);
    expect(typed.body).toMatchObject({ type: 'urn:credservice:problem:validation-error' });
    const fields = (typed.body as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields.some((f) => f.startsWith(field))).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('issues directly, bound to the holder key, and records no offer to redeem', async () => {
    const holderKey = {
      kty: 'EC' as const,
      crv: 'P-256' as const,
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    };
    const res = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'direct',
        holder_key: holderKey,
      },
    });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body.credential_offer_uri).toBeUndefined();
    const [jwt] = (res.body.credential ?? '').split('~');
    const payload = JSON.parse(Buffer.from(jwt?.split('.')[1] ?? '', 'base64url').toString());
    expect(payload.cnf.jwk).toMatchObject({ x: holderKey.x, y: holderKey.y });
    const read = await integrator.getIssuance({ params: { id: res.body.offer_id } });
    expect(read.status === 200 && read.body).toMatchObject({
      status: 'issued',
      credentials: [{ id: res.body.credential_id, status: 'valid' }],
    });
  });

  it('suspends, unsuspends and revokes a credential of the tenant only, auditing each change', async () => {
    const res = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'direct',
      },
    });
    if (res.status !== 201 || !res.body.credential_id) throw new Error('not issued');
    const id = res.body.credential_id;
    const bits = async () =>
      (await sql.query('select status from issued_credential where id = $1', [id])).rows[0].status as string;
    expect(await integrator.suspendCredential({ params: { id } })).toMatchObject({
      status: 200,
      body: { status: 'suspended' },
    });
    expect(await integrator.unsuspendCredential({ params: { id } })).toMatchObject({
      status: 200,
      body: { status: 'valid' },
    });
    expect(await integrator.revokeCredential({ params: { id } })).toMatchObject({
      status: 200,
      body: { status: 'revoked' },
    });
    expect(await integrator.revokeCredential({ params: { id } })).toMatchObject({
      status: 200,
      body: { status: 'revoked' },
    });
    const reinstate = await integrator.unsuspendCredential({ params: { id } });
    expect(reinstate.status).toBe(409);
    expect(await bits()).toBe('revoked');

    const other = await t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error('no tenant');
    const stranger = createIntegratorClient({ baseUrl: t.baseUrl, token: other.body.integrator_token });
    expect((await stranger.revokeCredential({ params: { id } })).status).toBe(404);
    expect((await stranger.getIssuance({ params: { id: res.body.offer_id } })).status).toBe(404);

    const tenantId = (await sql.query('select tenant_id from issued_credential where id = $1', [id])).rows[0]
      .tenant_id;
    const events = await t.admin.listAuditEvents({ params: { id: tenantId }, query: { limit: 1000 } });
    const mine =
      events.status === 200 ? events.body.items.filter((e) => e.subject === id).map((e) => e.action) : [];
    expect(mine).toEqual(['credential.suspended', 'credential.unsuspended', 'credential.revoked']);
  });

  it('serves the e-mailed offer as a page with a QR code and a same-device link', async () => {
    const res = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'email',
        email: 'qr@example.test',
      },
    });
    if (res.status !== 201) throw new Error('no offer');
    const offerMail = await smtp.waitForMail(
      (m) => m.to.includes('qr@example.test') && m.raw.includes('/oid4vci/v1/offer/'),
    );
    expect(offerMail?.raw).not.toMatch(/activation code is: \d{6}/);
    const page = await fetch(`${t.baseUrl}/oid4vci/v1/offer/${res.body.offer_id}`);
    const html = await page.text();
    expect(html).toContain('<svg');
    expect(html).toContain('openid-credential-offer://?credential_offer_uri=');
    expect((await fetch(`${t.baseUrl}/oid4vci/v1/offer/nope`)).status).toBe(404);
  });
});
