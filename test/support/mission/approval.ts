import { expect } from 'vitest';
import type { createIntegratorClient } from '../../../clients/integrator/src/index.js';
import type { HolderWallet } from '../../../clients/wallet/src/index.js';
import { employeePayload } from '../fixtures.js';
import { ThirdPartyHolder } from '../third-party-holder.js';

type Integrator = ReturnType<typeof createIntegratorClient>;

/**
 * An approval the employee credential's power allows (the fixture's Onboarding / Execute): the demo
 * wallet shows it and signs its hash only when told to approve; the integrator then reads the
 * approver and the signed receipt. The same request asked for a power the credential lacks fails as
 * mandate_insufficient, with nothing released.
 */
export async function approveWithDemoWallet(integrator: Integrator, wallet: HolderWallet) {
  const transaction = {
    type: 'urn:credservice:approval:1',
    subject: 'ONB-7',
    description: 'Onboard a new hire',
  };
  const ask = async (power: { function: string; action: string }) => {
    const created = await integrator.createApproval({ body: { transaction, power } });
    if (created.status !== 201) throw new Error(`approval: ${created.status}`);
    await wallet
      .present(created.body.authorization_request_uri, { allowHttp: true, approve: true })
      .catch(() => undefined);
    return (await integrator.getApproval({ params: { id: created.body.approval_id } })).body;
  };
  expect(await ask({ function: 'Onboarding', action: 'Execute' })).toMatchObject({
    status: 'approved',
    approver: { mandatee: { firstName: 'Ana' } },
    receipt: expect.stringMatching(/^ey/),
  });
  expect(await ask({ function: 'Purchasing', action: 'Approve' })).toMatchObject({
    status: 'failed',
    reason: 'mandate_insufficient',
  });
}

/**
 * The same approval answered by the third-party holder (@openid4vc/openid4vp) with a credential
 * bound to its key: approved when it signs the transaction data's hash; failed with the reason when
 * it drops the hashes or hashes something else, nothing released.
 */
export async function approveWithThirdPartyHolder(integrator: Integrator) {
  const transaction = { type: 'urn:credservice:approval:1', subject: 'ONB-8' };
  const power = { function: 'Onboarding', action: 'Execute' };
  const outcomes = [];
  for (const mode of ['sign', 'omit', 'wrong'] as const) {
    const holder = await ThirdPartyHolder.create();
    const issued = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'direct',
        holder_key: holder.holderJwk as never,
      },
    });
    if (issued.status !== 201 || !issued.body.credential) throw new Error(`issuance: ${issued.status}`);
    const created = await integrator.createApproval({ body: { transaction, power } });
    if (created.status !== 201) throw new Error(`approval: ${created.status}`);
    await holder.present(created.body.authorization_request_uri, [issued.body.credential], {
      approve: true,
      transactionDataMode: mode,
    } as never);
    outcomes.push((await integrator.getApproval({ params: { id: created.body.approval_id } })).body);
  }
  expect(outcomes).toMatchObject([
    { status: 'approved', receipt: expect.any(String) },
    { status: 'failed', reason: 'transaction_data_missing' },
    { status: 'failed', reason: 'transaction_data_mismatch' },
  ]);
}
