import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { readPreAuthorizedOffer, redeemPreAuthorizedCode } from '../support/pre-authorized-code.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant } from '../support/test-service.js';

/**
 * POST /api/v1/issuances/{id}/resend: an open offer mailed again with a new tx_code that replaces
 * the old one (kept only as a hash, it cannot be sent again); a locked offer reopens; an offer a
 * wallet redeemed, or another tenant's, is refused and nothing is mailed.
 */
let f: TenantFixture;
let n = 0;
const email = () => `resend-${++n}@example.test`;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

/** The token endpoint's answer to the offer's pre-authorized code with `txCode`. */
const redeem = async (location: string, txCode: string) =>
  redeemPreAuthorizedCode(f.t.baseUrl, (await readPreAuthorizedOffer(location)).code, txCode);

/** The tx_codes mailed to `to`, oldest first. */
const codesTo = (to: string) =>
  f.smtp.messages
    .filter((m) => m.to.includes(to) && /activation code is/.test(m.raw))
    .map((m) => /activation code is: (\d{6})/.exec(m.raw)?.[1] ?? '');

async function waitForCodes(to: string, count: number) {
  for (let i = 0; codesTo(to).length < count && i < 150; i++) await new Promise((r) => setTimeout(r, 200));
  return codesTo(to);
}

describe('mailing an offer again', () => {
  it('sends a new tx_code that replaces the old one', async () => {
    const to = email();
    const { offerId, location, txCode } = await mailedOffer(f.integrator, f.smtp, to);
    const res = await f.integrator.resendIssuanceMail({ params: { id: offerId } });
    expect(res.status).toBe(200);
    const [first, second] = await waitForCodes(to, 2);
    expect(first).toBe(txCode);
    expect(second).toMatch(/^\d{6}$/);
    const old = await redeem(location, first ?? '');
    expect(old.status).toBe(400);
    expect(await old.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await redeem(location, second ?? '')).status).toBe(200);
    const { rows } = await f.sql.query(
      `select details from audit_pending where subject = $1 and action = 'issuance.mail_resent'
       union all select details from audit_event where subject = $1 and action = 'issuance.mail_resent'`,
      [offerId],
    );
    expect(rows[0]?.details).toMatchObject({ mails: ['tx-code'], new_tx_code: true });
    expect(JSON.stringify(rows)).not.toContain(second);

    // Redeemed now: nothing left to mail again.
    const again = await f.integrator.resendIssuanceMail({ params: { id: offerId } });
    expect(again.status).toBe(409);
    expect(codesTo(to)).toHaveLength(2);
  });

  it('reopens an offer that wrong codes locked', async () => {
    const to = email();
    const { offerId, location } = await mailedOffer(f.integrator, f.smtp, to);
    await f.sql.query(`update issuance set status = 'locked', tx_code_failures = 5 where id = $1`, [offerId]);
    expect((await f.integrator.resendIssuanceMail({ params: { id: offerId } })).status).toBe(200);
    const [, fresh] = await waitForCodes(to, 2);
    expect((await redeem(location, fresh ?? '')).status).toBe(200);
  });

  it("is refused for another tenant's offer, and mails nothing", async () => {
    const to = email();
    const { offerId } = await mailedOffer(f.integrator, f.smtp, to);
    const other = await f.t.admin.createTenant({ body: acmeTenant('resend-other') });
    if (other.status !== 201) throw new Error(`tenant ${other.status}`);
    const stranger = createIntegratorClient({ baseUrl: f.t.baseUrl, token: other.body.integrator_token });
    const res = await stranger.resendIssuanceMail({ params: { id: offerId } });
    expect(res.status).toBe(404);
    await new Promise((r) => setTimeout(r, 500));
    expect(codesTo(to)).toHaveLength(1);
  });
});
