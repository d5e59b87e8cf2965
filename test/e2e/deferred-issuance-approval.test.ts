import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
} from '../../clients/wallet/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { walletHttp } from '../support/holder-setup.js';
import { mailedOffer } from '../support/mailed-offer.js';
import type { TenantFixture } from '../support/tenant-fixture.js';
import { tenantWithWebhooks } from '../support/tenant-with-webhooks.js';
import { until } from '../support/until.js';

/**
 * A deferred issuance decided by a presented approval: POST /api/v1/issuances/{id}/approval asks an
 * employee to approve the waiting issuance with the mandate in their credential (OpenID4VP
 * transaction_data). An approver whose power allows it approves, and the waiting wallet collects
 * its credential; an approver without the power fails the approval (mandate_insufficient) and the
 * issuance keeps waiting.
 */
let f: TenantFixture;
let n = 0;
const APPROVER_POWER = { function: 'Onboarding', action: ['Approve'] };

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ f, stop } = await tenantWithWebhooks());
});
afterAll(() => stop?.());

const newWallet = () =>
  new HolderWallet({ crypto: inMemoryHolderCrypto(), store: inMemoryCredentialStore(), http: walletHttp });

/** A demo wallet holding an employee credential with these powers. */
async function approver(powers: object[]) {
  const email = `approver${++n}@acme.test`;
  const payload = employeePayload();
  const offer = await mailedOffer(f.integrator, f.smtp, email, {
    ...payload,
    mandatee: { ...payload.mandatee, email },
    power: powers,
  });
  const wallet = newWallet();
  await wallet.receive(offer.offerUri, { txCode: offer.txCode });
  return wallet;
}

const statusOf = async (id: string) => {
  const res = await f.integrator.getIssuance({ params: { id } });
  return res.status === 200 ? res.body.status : `http ${res.status}`;
};

/** An approval-required offer whose wallet has asked and now waits for the decision. */
async function waitingIssuance() {
  const email = `newhire${++n}@acme.test`;
  const offer = await mailedOffer(f.integrator, f.smtp, email, employeePayload(), undefined, {
    approvalRequired: true,
  });
  const collected = newWallet()
    .receive(offer.offerUri, { txCode: offer.txCode, deferredTimeoutMs: 60_000 })
    .then(
      (stored) => stored,
      (e: { error?: string }) => e.error ?? String(e),
    );
  expect(
    await until(
      () => statusOf(offer.offerId),
      (s) => s === 'awaiting_approval',
      20_000,
    ),
  ).toBe('awaiting_approval');
  return { id: offer.offerId, email, collected };
}

async function askApproval(id: string, body: Record<string, unknown> = {}) {
  const res = await f.integrator.requestIssuanceApproval({ params: { id }, body });
  if (res.status !== 201) throw new Error(`approval: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const approvalOf = async (id: string) => (await f.integrator.getApproval({ params: { id } })).body;

describe('deferred issuance decided by a presented approval', () => {
  it('an approver with the power approves: the issuance is approved and the waiting wallet collects', async () => {
    const approverWallet = await approver([APPROVER_POWER]);
    const waiting = await waitingIssuance();
    const approval = await askApproval(waiting.id);
    expect(await approvalOf(approval.approval_id)).toMatchObject({
      status: 'pending',
      power: { function: 'Onboarding', action: 'Approve' },
      transaction: {
        type: 'urn:credservice:approval:1',
        subject: `Issue LEARCredentialEmployee to ${waiting.email}`,
        description: `Issuance ${waiting.id}`,
      },
    });

    const presented = await approverWallet.present(approval.authorization_request_uri, { approve: true });
    expect(presented.transactionData?.[0]?.data).toMatchObject({ description: `Issuance ${waiting.id}` });
    expect(await approvalOf(approval.approval_id)).toMatchObject({ status: 'approved' });
    expect(await statusOf(waiting.id)).toMatch(/^(approved|issued)$/);

    const stored = await waiting.collected;
    expect(stored).toMatchObject([{ claims: { mandatee: { firstName: 'Ana' } } }]);
    expect(await statusOf(waiting.id)).toBe('issued');

    // The audit event names the approval and the approver from the presented credential …
    const { rows } = await f.sql.query(
      `select actor, details from (select actor, details, action, subject from audit_event
         union all select actor, details, action, subject from audit_pending) e
       where action = 'issuance.approved' and subject = $1`,
      [waiting.id],
    );
    expect(rows).toEqual([
      {
        actor: `approval:${approval.approval_id}`,
        details: expect.objectContaining({
          approval: approval.approval_id,
          approver: expect.stringMatching(/^approver\d+@acme\.test$/),
        }),
      },
    ]);
    // … and issuance.approved tells the integrator which approval decided it.
    const hooks = await f.sql.query(
      "select payload from webhook_delivery where event_type = 'issuance.approved' and payload -> 'data' ->> 'issuance_id' = $1",
      [waiting.id],
    );
    expect(hooks.rows.map((r) => r.payload.data)).toEqual([
      {
        issuance_id: waiting.id,
        credential_configuration_id: 'LEARCredentialEmployee',
        approval_id: approval.approval_id,
      },
    ]);
  }, 90_000);

  it('an approver without the power fails the approval (mandate_insufficient); the issuance keeps waiting', async () => {
    const unauthorised = await approver([{ function: 'Onboarding', action: ['Execute'] }]);
    const waiting = await waitingIssuance();
    const approval = await askApproval(waiting.id);
    await expect(
      unauthorised.present(approval.authorization_request_uri, { approve: true }),
    ).rejects.toThrow();
    expect(await approvalOf(approval.approval_id)).toMatchObject({
      status: 'failed',
      reason: 'mandate_insufficient',
    });
    expect(await statusOf(waiting.id)).toBe('awaiting_approval');

    // A power the request names instead of the default: this approver holds it, and decides.
    const named = await askApproval(waiting.id, { power: { function: 'Onboarding', action: 'Execute' } });
    await unauthorised.present(named.authorization_request_uri, { approve: true });
    expect(await approvalOf(named.approval_id)).toMatchObject({ status: 'approved' });
    expect(await waiting.collected).toMatchObject([{ claims: { mandatee: { firstName: 'Ana' } } }]);
  }, 90_000);

  it('answers 404 for an unknown issuance and 409 for one not awaiting approval', async () => {
    const unknown = await f.integrator.requestIssuanceApproval({
      params: { id: 'no-such-issuance' },
      body: {},
    });
    expect(unknown).toMatchObject({ status: 404, body: { status: 404 } });
    expect(unknown.headers.get('content-type')).toMatch(/application\/problem\+json/);

    // An approval-required offer whose wallet has not asked yet is not awaiting approval.
    const offer = await mailedOffer(
      f.integrator,
      f.smtp,
      `early${++n}@acme.test`,
      employeePayload(),
      undefined,
      {
        approvalRequired: true,
      },
    );
    const early = await f.integrator.requestIssuanceApproval({ params: { id: offer.offerId }, body: {} });
    expect(early).toMatchObject({ status: 409, body: { status: 409 } });
    expect(early.headers.get('content-type')).toMatch(/application\/problem\+json/);
  }, 60_000);
});
