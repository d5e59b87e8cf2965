import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
let f: TenantFixture;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

/** The offer's lifetime as recorded, and the lifetime of the codes it hands out, in seconds. */
async function lifetimes(offerId: string) {
  const { rows } = await f.sql.query(
    `select extract(epoch from expires_at - created_at)::int as offer, pre_authorized_code_ttl_seconds as code
     from issuance where id = $1`,
    [offerId],
  );
  return rows[0] as { offer: number; code: number };
}

const offer = (extra: { expires_in?: number; delivery?: 'ui' | 'direct' } = {}) =>
  f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui',
      email: `lifetime-${++n}@example.test`,
      ...extra,
    },
  });

const patchTenant = (body: {
  offer_expires_in?: number | null;
  pre_authorized_code_expires_in?: number | null;
}) => f.t.admin.updateTenant({ params: { id: f.tenant.id }, body });

describe('offer lifetimes', () => {
  it('default to a day for the offer and ten minutes for each code; a request may choose its own', async () => {
    const plain = await offer();
    expect(plain.status === 201 && plain.body.expires_in).toBe(86_400);
    if (plain.status !== 201) return;
    expect(await lifetimes(plain.body.offer_id)).toEqual({ offer: 86_400, code: 600 });
    const short = await offer({ expires_in: 900 });
    expect(short.status === 201 && short.body.expires_in).toBe(900);
    if (short.status !== 201) return;
    expect(await lifetimes(short.body.offer_id)).toEqual({ offer: 900, code: 600 });
    for (const bad of [
      { expires_in: 30 },
      { expires_in: 8 * 86_400 },
      { expires_in: 900, delivery: 'direct' as const },
    ])
      expect((await offer(bad)).status, JSON.stringify(bad)).toBe(400);
  });

  it('follow the tenant’s settings, which the admin API sets and clears', async () => {
    const set = await patchTenant({ offer_expires_in: 3_600, pre_authorized_code_expires_in: 120 });
    expect(set).toMatchObject({
      status: 200,
      body: { offer_expires_in: 3_600, pre_authorized_code_expires_in: 120 },
    });
    try {
      const made = await offer();
      if (made.status !== 201) throw new Error(`offer: ${made.status}`);
      expect(made.body.expires_in).toBe(3_600);
      expect(await lifetimes(made.body.offer_id)).toEqual({ offer: 3_600, code: 120 });
      const chosen = await offer({ expires_in: 300 });
      if (chosen.status !== 201) throw new Error(`offer: ${chosen.status}`);
      expect(await lifetimes(chosen.body.offer_id)).toEqual({ offer: 300, code: 120 });
      expect((await patchTenant({ offer_expires_in: 10 })).status).toBe(400);
      expect((await patchTenant({ pre_authorized_code_expires_in: 86_400 })).status).toBe(400);
    } finally {
      const cleared = await patchTenant({ offer_expires_in: null, pre_authorized_code_expires_in: null });
      expect(cleared).toMatchObject({
        body: { offer_expires_in: null, pre_authorized_code_expires_in: null },
      });
    }
  });

  it('let a pre-authorized code expire on its own clock while the offer stays open for a fresh one', async () => {
    const { offerId, location, txCode } = await mailedOffer(
      f.integrator,
      f.smtp,
      `clock-${++n}@example.test`,
    );
    const codeOf = async () =>
      (
        (await (await fetch(location)).json()) as {
          grants: Record<string, { 'pre-authorized_code': string }>;
        }
      ).grants[PRE_AUTH]?.['pre-authorized_code'] ?? '';
    const token = (code: string) =>
      fetch(`${f.t.baseUrl}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: PRE_AUTH, 'pre-authorized_code': code, tx_code: txCode }),
      });
    // One second instead of ten minutes, so that the test can wait it out.
    await f.sql.query('update issuance set pre_authorized_code_ttl_seconds = 1 where id = $1', [offerId]);
    const stale = await codeOf();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const refused = await token(stale);
    expect(await refused.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired/),
    });
    const row = await f.sql.query('select status, tx_code_failures from issuance where id = $1', [offerId]);
    expect(row.rows[0]).toEqual({ status: 'offered', tx_code_failures: 0 });

    await f.sql.query('update issuance set pre_authorized_code_ttl_seconds = 600 where id = $1', [offerId]);
    const fresh = await codeOf();
    expect(fresh).not.toBe(stale);
    expect((await token(fresh)).status).toBe(200);
  });
});
