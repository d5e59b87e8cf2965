import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
} from '../../clients/wallet/src/index.js';
import { runAdminCli } from '../support/admin-cli.js';
import { walletHttp } from '../support/holder-setup.js';
import { scimClient } from '../support/scim-client.js';
import type { TenantFixture } from '../support/tenant-fixture.js';
import { tenantWithWebhooks } from '../support/tenant-with-webhooks.js';
import { until } from '../support/until.js';

/**
 * The SCIM provisioning setting `approval_required`: the issuances provisioning creates (a new user,
 * a renewal) wait for approval as `approval_required: true` on the integrator API does. The wallet
 * gets 202 and a transaction_id, the integrator hears issuance.awaiting_approval and approves, and
 * the wallet collects; a renewal withdraws the waiting issuance for a new waiting one, and deleting
 * the user withdraws it (the wallet is told credential_request_denied).
 */
let f: TenantFixture;
let scim: ReturnType<typeof scimClient>;
const EXT = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ f, stop } = await tenantWithWebhooks());
  scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
});
afterAll(() => stop?.());

const user = (email: string, familyName = 'Ruiz') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  name: { givenName: 'Ana', familyName },
  emails: [{ value: email, primary: true }],
});
const statusOf = async (id: string) => {
  const res = await f.integrator.getIssuance({ params: { id } });
  return res.status === 200 ? res.body.status : `http ${res.status}`;
};

/** The `nth` tx_code mailed to `email` (each issuance mails one). */
async function txCode(email: string, nth: number) {
  const codes = () =>
    f.smtp.messages
      .filter((m) => m.to.includes(email) && /activation code is/.test(m.raw))
      .map((m) => /activation code is: (\d{6})/.exec(m.raw)?.[1] ?? '');
  await f.smtp.waitForMail(() => codes().length >= nth, 30_000);
  return codes()[nth - 1] ?? '';
}

/**
 * The wallet redeems the user's issuance and waits (deferred) for the decision: returns once the
 * issuance awaits approval, with the wallet's outcome still to come (wrapped, so that awaiting this
 * does not await the wallet).
 */
async function redeemAndWait(email: string, issuanceId: string, nth: number) {
  const location = `${f.t.baseUrl}/oid4vci/v1/credential-offer/${issuanceId}`;
  const uri = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(location)}`;
  const wallet = new HolderWallet({
    crypto: inMemoryHolderCrypto(),
    store: inMemoryCredentialStore(),
    http: walletHttp,
  });
  const collected = wallet.receive(uri, { txCode: await txCode(email, nth), deferredTimeoutMs: 60_000 }).then(
    (stored) => stored,
    (e: { error?: string }) => e.error ?? String(e),
  );
  expect(
    await until(
      () => statusOf(issuanceId),
      (s) => s === 'awaiting_approval',
      20_000,
    ),
  ).toBe('awaiting_approval');
  return { collected };
}

describe('SCIM provisioning with approval_required', () => {
  it('is set with the CLI, and held SCIM issuances wait for approval before the wallet collects', async () => {
    const set = await runAdminCli(
      f.t,
      'provisioning',
      'set',
      f.tenant.id,
      '--approval-required',
      'true',
      '--approval-power',
      'Onboarding:Approve:ACME',
    );
    expect(set).toMatchObject({
      code: 0,
      body: {
        approval_required: true,
        approval_power: { function: 'Onboarding', action: 'Approve', domain: 'ACME' },
        credential_configuration_id: 'LEARCredentialEmployee',
      },
    });

    const email = 'held.user@acme.test';
    const created = await scim.post('/Users', user(email));
    expect(created.status).toBe(201);
    const issuanceId = created.body[EXT].issuanceId as string;
    expect((await f.integrator.getIssuance({ params: { id: issuanceId } })).body).toMatchObject({
      status: 'offered',
      approval_required: true,
    });

    const { collected } = await redeemAndWait(email, issuanceId, 1);
    expect((await scim.get(`/Users/${created.body.id}`)).body[EXT]).toMatchObject({
      status: 'awaiting_approval',
      issuanceId,
    });
    const hooks = await f.sql.query(
      "select event_type from webhook_delivery where payload -> 'data' ->> 'issuance_id' = $1",
      [issuanceId],
    );
    expect(hooks.rows.map((r) => r.event_type)).toContain('issuance.awaiting_approval');
    // The tenant's approval_power is what an approval of this issuance asks for by default.
    const approval = await f.integrator.requestIssuanceApproval({ params: { id: issuanceId }, body: {} });
    expect(approval.status).toBe(201);
    if (approval.status === 201)
      expect(
        (await f.integrator.getApproval({ params: { id: approval.body.approval_id } })).body,
      ).toMatchObject({
        power: { function: 'Onboarding', action: 'Approve', domain: 'ACME' },
      });

    expect((await f.integrator.approveIssuance({ params: { id: issuanceId } })).status).toBe(200);
    expect(await collected).toMatchObject([{ claims: { mandatee: { firstName: 'Ana', email } } }]);
    expect((await scim.get(`/Users/${created.body.id}`)).body[EXT]).toMatchObject({ status: 'valid' });
  }, 120_000);

  it('a renewal replaces the waiting issuance with a new waiting one; a delete withdraws it', async () => {
    const settings = await runAdminCli(
      f.t,
      'provisioning',
      'set',
      f.tenant.id,
      '--approval-required',
      'true',
    );
    expect(settings.code).toBe(0);
    const email = 'renewed.user@acme.test';
    const created = await scim.post('/Users', user(email));
    const path = `/Users/${created.body.id}`;
    const first = created.body[EXT].issuanceId as string;
    const { collected: firstWallet } = await redeemAndWait(email, first, 1);

    // A PUT that changes nothing the credential carries leaves the waiting issuance alone …
    const same = await scim.put(path, user(email));
    expect(same.body[EXT]).toMatchObject({ status: 'awaiting_approval', issuanceId: first });
    // … one that does withdraws it and holds the renewal for approval too.
    const renewed = await scim.put(path, user(email, 'Ruiz Gil'));
    const second = renewed.body[EXT].issuanceId as string;
    expect(second).not.toBe(first);
    expect(await statusOf(first)).toBe('withdrawn');
    expect(await firstWallet).toBe('credential_request_denied');
    expect((await f.integrator.getIssuance({ params: { id: second } })).body).toMatchObject({
      approval_required: true,
    });

    const { collected: secondWallet } = await redeemAndWait(email, second, 2);
    expect((await scim.delete(path)).status).toBe(204);
    expect(await statusOf(second)).toBe('withdrawn');
    expect(await secondWallet).toBe('credential_request_denied');
    expect((await f.integrator.approveIssuance({ params: { id: second } })).status).toBe(409);
  }, 120_000);

  it('a tenant with direct delivery cannot hold issuances: its users get none, with the reason, and a warning', async () => {
    const updated = await f.t.admin.updateTenant({
      params: { id: f.tenant.id },
      body: { delivery: 'direct' },
    });
    expect(updated.status).toBe(200);
    const created = await scim.post('/Users', user('direct.user@acme.test'));
    expect(created.status).toBe(201);
    expect(created.body[EXT]).toMatchObject({
      status: 'none',
      reason: expect.stringMatching(/direct delivery cannot wait/),
    });
    const tenant = await f.t.admin.getTenant({ params: { id: f.tenant.id } });
    expect(tenant.body).toMatchObject({ warnings: [expect.stringMatching(/holds issuances for approval/)] });
  });
});
