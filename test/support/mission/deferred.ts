import { expect } from 'vitest';
import type { createIntegratorClient } from '../../../clients/integrator/src/index.js';
import type { HolderWallet } from '../../../clients/wallet/src/index.js';
import { employeePayload } from '../fixtures.js';
import { until } from '../until.js';
import type { Mailbox } from './mailbox.js';

type Integrator = ReturnType<typeof createIntegratorClient>;

/**
 * An issuance behind an approval (or, with `powers`, an employee credential holding them, issued at
 * once), offered by mail-delivered tx_code: its id and how to redeem it.
 */
async function approvalOffer(
  integrator: Integrator,
  mailbox: Mailbox,
  email: string,
  powers?: { function: string; action: string[] }[],
) {
  const payload = employeePayload();
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: { ...payload, mandatee: { ...payload.mandatee, email }, ...(powers ? { power: powers } : {}) },
      delivery: 'ui',
      email,
      ...(powers ? {} : { approval_required: true }),
    },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  const txCode =
    /activation code is: (\d{6})/.exec(await mailbox.find(email, /activation code is/))?.[1] ?? '';
  return { id: res.body.offer_id, uri: res.body.credential_offer_uri, txCode };
}

const statusOf = async (integrator: Integrator, id: string) => {
  const res = await integrator.getIssuance({ params: { id } });
  return res.status === 200 ? res.body.status : `http ${res.status}`;
};

/**
 * Deferred issuance (OID4VCI 1.0 section 9) on the wallet's encrypted channel: the wallet's request
 * waits for the integrator's decision; approved, the wallet collects its credential from the
 * deferred credential endpoint; declined, it is told `credential_request_denied`. Then decided by a
 * presented approval: an employee whose credential holds Onboarding / Approve approves the waiting
 * issuance with the demo wallet, and the waiting wallet collects.
 */
export async function deferredLifecycle(
  integrator: Integrator,
  mailbox: Mailbox,
  wallet: () => HolderWallet,
  email: () => string,
) {
  const approved = await approvalOffer(integrator, mailbox, email());
  const receiving = wallet().receive(approved.uri, { txCode: approved.txCode, deferredTimeoutMs: 30_000 });
  await until(
    () => statusOf(integrator, approved.id),
    (s) => s === 'awaiting_approval',
    15_000,
  );
  expect((await integrator.approveIssuance({ params: { id: approved.id } })).status).toBe(200);
  const [stored] = await receiving;
  expect(stored?.claims).toMatchObject({ mandatee: { firstName: 'Ana' } });
  expect(await statusOf(integrator, approved.id)).toBe('issued');

  const declined = await approvalOffer(integrator, mailbox, email());
  const refused = wallet()
    .receive(declined.uri, { txCode: declined.txCode, deferredTimeoutMs: 30_000 })
    .then(
      () => 'issued',
      (e: { error?: string }) => e.error ?? String(e),
    );
  await until(
    () => statusOf(integrator, declined.id),
    (s) => s === 'awaiting_approval',
    15_000,
  );
  expect((await integrator.declineIssuance({ params: { id: declined.id } })).status).toBe(200);
  expect(await refused).toBe('credential_request_denied');

  await approvedByPresentation(integrator, mailbox, wallet, email);
}

/** A waiting issuance approved by an approver's presentation (POST /api/v1/issuances/{id}/approval). */
async function approvedByPresentation(
  integrator: Integrator,
  mailbox: Mailbox,
  wallet: () => HolderWallet,
  email: () => string,
) {
  const approverOffer = await approvalOffer(integrator, mailbox, email(), [
    { function: 'Onboarding', action: ['Approve'] },
  ]);
  const approver = wallet();
  await approver.receive(approverOffer.uri, { txCode: approverOffer.txCode });

  const held = await approvalOffer(integrator, mailbox, email());
  const receiving = wallet().receive(held.uri, { txCode: held.txCode, deferredTimeoutMs: 30_000 });
  await until(
    () => statusOf(integrator, held.id),
    (s) => s === 'awaiting_approval',
    15_000,
  );
  const approval = await integrator.requestIssuanceApproval({ params: { id: held.id }, body: {} });
  if (approval.status !== 201) throw new Error(`approval: ${approval.status}`);
  await approver.present(approval.body.authorization_request_uri, { allowHttp: true, approve: true });
  expect((await integrator.getApproval({ params: { id: approval.body.approval_id } })).body).toMatchObject({
    status: 'approved',
  });
  const [stored] = await receiving;
  expect(stored?.claims).toMatchObject({ mandatee: { firstName: 'Ana' } });
  expect(await statusOf(integrator, held.id)).toBe('issued');
}
