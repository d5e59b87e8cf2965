import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import type { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import type { TestService } from '../support/test-service.js';

let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let integrator: ReturnType<typeof createIntegratorClient>;
let sql: pg.Client;
let n = 0;

let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
  ({ t, smtp, integrator, sql } = f);
});
afterAll(() => f.stop());

/** An offer as a wallet sees it, plus the tx_code from the mail the employee got. */
async function newOffer() {
  const { offerId, location, txCode } = await mailedOffer(integrator, smtp, `employee-${++n}@example.test`);
  const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
  const code =
    offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'] ?? '';
  return { offerId, location, code, txCode };
}

const token = (fields: Record<string, string>) =>
  fetch(`${t.baseUrl}/oid4vci/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

const preAuth = (code: string, txCode?: string) => ({
  grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
  'pre-authorized_code': code,
  ...(txCode ? { tx_code: txCode } : {}),
});

const issuanceRow = async (id: string) =>
  (await sql.query('select status, tx_code_failures from issuance where id = $1', [id])).rows[0];

describe('OID4VCI token endpoint', () => {
  it('exchanges the pre-authorized code and tx_code for a short-lived bearer token, once', async () => {
    const o = await newOffer();
    const res = await token(preAuth(o.code, o.txCode));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 300,
    });
    const again = await token(preAuth(o.code, o.txCode));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await fetch(o.location)).status).toBe(404);
  });

  it('lets exactly one of two racing wallets win', async () => {
    const o = await newOffer();
    const results = await Promise.all(Array.from({ length: 6 }, () => token(preAuth(o.code, o.txCode))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const { rows } = await sql.query(
      'select count(*)::int as n from oid4vci_access_token where issuance_id = $1',
      [o.offerId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('answers a missing tx_code with invalid_request and changes nothing', async () => {
    const o = await newOffer();
    const res = await token(preAuth(o.code));
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    expect(await issuanceRow(o.offerId)).toEqual({ status: 'offered', tx_code_failures: 0 });
  });

  it('answers a wrong tx_code with invalid_grant, and locks the offer at the fifth', async () => {
    const o = await newOffer();
    const wrong = o.txCode === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i++) {
      const res = await token(preAuth(o.code, wrong));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
      expect(await issuanceRow(o.offerId)).toEqual({
        status: i < 5 ? 'offered' : 'locked',
        tx_code_failures: i,
      });
    }
    const right = await token(preAuth(o.code, o.txCode));
    expect(await right.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/locked/),
    });
    const audit = await t.admin.listAuditEvents({
      params: {
        id: (await sql.query('select tenant_id from issuance where id = $1', [o.offerId])).rows[0].tenant_id,
      },
      query: { action: 'offer.locked' },
    });
    expect(audit.status === 200 && audit.body.items.map((e) => e.subject)).toContain(o.offerId);
  });

  it('answers an expired offer with invalid_grant', async () => {
    const o = await newOffer();
    await sql.query("update issuance set expires_at = now() - interval '1 second' where id = $1", [
      o.offerId,
    ]);
    const res = await token(preAuth(o.code, o.txCode));
    expect(await res.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired/),
    });
    expect((await fetch(o.location)).status).toBe(404);
    expect(await issuanceRow(o.offerId)).toEqual({ status: 'offered', tx_code_failures: 0 });
  });

  it('answers forged codes, other grants and garbage with OAuth errors, never 500', async () => {
    const o = await newOffer();
    const forged = `${o.offerId}.${'A'.repeat(43)}`;
    expect(await (await token(preAuth(forged, o.txCode))).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await token({ grant_type: 'authorization_code', code: 'x' })).json()).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect(await (await token({})).json()).toMatchObject({ error: 'invalid_request' });
    const json = await fetch(`${t.baseUrl}/oid4vci/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    expect(await issuanceRow(o.offerId)).toEqual({ status: 'offered', tx_code_failures: 0 });
  });

  it('answers other methods than POST at PAR and the token endpoints with 405 and Allow: POST', async () => {
    for (const path of ['/oauth2/par', '/oauth2/token', '/oid4vci/v1/token'])
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await fetch(`${t.baseUrl}${path}?client_id=x`, { method });
        expect([path, method, res.status, res.headers.get('allow')]).toEqual([path, method, 405, 'POST']);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.json()).toEqual({
          error: 'invalid_request',
          error_description: `${method} is not allowed here: send the request as a form POST`,
        });
      }
  });
});
