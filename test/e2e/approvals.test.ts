import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  TransactionDataNotApprovedError,
} from '../../clients/wallet/src/index.js';
import { runAdminCli } from '../support/admin-cli.js';
import { employeePayload } from '../support/fixtures.js';
import { walletHttp } from '../support/holder-setup.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { validateX5c } from '../support/x5c-validation.js';

/**
 * Approvals end to end: an employee approves a purchase order with the mandate in their credential,
 * with the demo wallet and with the third-party holder; every refusal fails the approval with its
 * reason and releases nothing; the receipt checks offline, with jose and with the CLI.
 */
let f: TenantFixture;
let dir: string;
const PURCHASER = { function: 'Purchasing', action: ['Approve', 'Order'] };
const transaction = {
  type: 'urn:credservice:approval:1',
  subject: 'PO-2026-0042',
  description: 'Laptops for the Madrid office',
  amount: { value: '12400.00', currency: 'EUR' },
};
const power = { function: 'Purchasing', action: 'Approve' };
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'approvals-'));
});
afterAll(async () => {
  await f?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const payloadWith = (powers: object[]) => ({ ...employeePayload(), power: powers });

/** A demo wallet holding an employee credential with these powers, received as an employee does. */
async function demoWallet(powers: object[] = [PURCHASER]) {
  const offer = await mailedOffer(f.integrator, f.smtp, `approver-${++n}@acme.test`, payloadWith(powers));
  const wallet = new HolderWallet({
    crypto: inMemoryHolderCrypto(),
    store: inMemoryCredentialStore(),
    http: walletHttp,
  });
  await wallet.receive(offer.offerUri, { txCode: offer.txCode });
  return wallet;
}

/** A third-party holder and a credential bound to its key (direct delivery). */
async function thirdParty(powers: object[] = [PURCHASER]) {
  const holder = await ThirdPartyHolder.create();
  const res = await f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: payloadWith(powers) as never,
      delivery: 'direct',
      holder_key: holder.holderJwk as never,
    },
  });
  if (res.status !== 201 || !res.body.credential) throw new Error(`issuance: ${res.status}`);
  return { holder, credential: res.body.credential };
}

async function newApproval(body: Record<string, unknown> = {}) {
  const created = await f.integrator.createApproval({ body: { transaction, power, ...body } as never });
  if (created.status !== 201) throw new Error(`approval: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}
const approvalOf = async (id: string) => (await f.integrator.getApproval({ params: { id } })).body;

describe('approvals', () => {
  it('an employee approves a purchase order with the demo wallet; the receipt checks offline', async () => {
    const wallet = await demoWallet();
    const approval = await newApproval();
    expect(await approvalOf(approval.approval_id)).toMatchObject({ status: 'pending', transaction, power });

    await expect(wallet.present(approval.authorization_request_uri)).rejects.toBeInstanceOf(
      TransactionDataNotApprovedError,
    );
    expect((await approvalOf(approval.approval_id)).status).toBe('pending');

    const presented = await wallet.present(approval.authorization_request_uri, { approve: true });
    expect(presented.transactionData?.[0]?.data).toMatchObject({
      subject: 'PO-2026-0042',
      credential_ids: ['credential'],
    });
    const done = await approvalOf(approval.approval_id);
    expect(done).toMatchObject({
      status: 'approved',
      approver: { mandatee: { firstName: 'Ana' }, power: [PURCHASER] },
      receipt: expect.any(String),
    });

    // A third party with the deployment's root checks the receipt with jose alone.
    const receipt = (done as { receipt: string }).receipt;
    const header = decodeProtectedHeader(receipt);
    expect(header).toMatchObject({ typ: 'approval-receipt+jwt', alg: 'ES256' });
    const ca = await createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).admin.getDevelopmentCa();
    if (ca.status !== 200) throw new Error('no development CA');
    const leaf = await validateX5c(header.x5c, ca.body.pem.replace(/-----[^-]+-----|\s/g, ''));
    const { payload } = await compactVerify(
      receipt,
      new X509Certificate(Buffer.from(leaf.rawData)).publicKey,
    );
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims).toMatchObject({
      jti: approval.approval_id,
      approval: { id: approval.approval_id, session_id: approval.session_id, transaction, power },
      credential: { status_at_approval: 'valid' },
    });
    // The presentation inside is the holder's: its KB-JWT signed the transaction data's hash.
    const kb = JSON.parse(
      Buffer.from(claims.presentation.split('~').at(-1).split('.')[1], 'base64url').toString(),
    );
    expect(kb.transaction_data_hashes).toHaveLength(1);

    const root = path.join(dir, 'root.pem');
    const file = path.join(dir, 'receipt.jwt');
    await fs.writeFile(root, ca.body.pem);
    await fs.writeFile(file, receipt);
    expect(await runAdminCli(f.t, 'approval', 'verify-receipt', file, '--root', root)).toMatchObject({
      code: 0,
      body: { valid: true, approval: { id: approval.approval_id } },
    });
    await fs.writeFile(file, `${receipt.slice(0, -4)}AAAA`);
    expect((await runAdminCli(f.t, 'approval', 'verify-receipt', file, '--root', root)).code).not.toBe(0);
  }, 60_000);

  it('the third-party holder approves too; dropped or foreign hashes fail the approval with the reason', async () => {
    const cases = [
      { options: { approve: true }, expected: { status: 'approved' } },
      {
        options: { approve: true, transactionDataMode: 'omit' },
        expected: { status: 'failed', reason: 'transaction_data_missing' },
      },
      {
        options: { approve: true, transactionDataMode: 'wrong' },
        expected: { status: 'failed', reason: 'transaction_data_mismatch' },
      },
    ] as const;
    for (const { options, expected } of cases) {
      const { holder, credential } = await thirdParty();
      const approval = await newApproval();
      await holder.present(approval.authorization_request_uri, [credential], options as never);
      const outcome = await approvalOf(approval.approval_id);
      expect(outcome).toMatchObject(expected);
      if (expected.status === 'failed') expect(outcome).not.toHaveProperty('approver');
    }
  }, 60_000);

  it('approves over the Digital Credentials API too (dc_api.jwt)', async () => {
    const origin = 'https://purchasing.acme.test';
    const wallet = await demoWallet();
    const approval = await newApproval({ response_mode: 'dc_api.jwt', expected_origins: [origin] });
    const request = approval.dc_api_request;
    if (!request || !approval.dc_api_response_uri) throw new Error('no dc_api_request');
    const { data } = await wallet.answerDcApi(request, origin, { approve: true });
    const posted = await fetch(approval.dc_api_response_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ origin, data }),
    });
    expect(posted.status).toBe(200);
    expect(await approvalOf(approval.approval_id)).toMatchObject({
      status: 'approved',
      receipt: expect.any(String),
    });
  });

  it('fails as mandate_insufficient when the credential’s powers do not cover the action', async () => {
    const wallet = await demoWallet([{ function: 'Onboarding', action: ['Execute'] }]);
    const approval = await newApproval();
    await wallet.present(approval.authorization_request_uri, { approve: true }).catch(() => undefined);
    const outcome = await approvalOf(approval.approval_id);
    expect(outcome).toMatchObject({ status: 'failed', reason: 'mandate_insufficient' });
    expect(outcome).not.toHaveProperty('receipt');
    const domain = await newApproval({ power: { ...power, domain: 'Spain' } });
    const purchaser = await demoWallet();
    await purchaser.present(domain.authorization_request_uri, { approve: true }).catch(() => undefined);
    expect(await approvalOf(domain.approval_id)).toMatchObject({
      status: 'failed',
      reason: 'mandate_insufficient',
    });
  }, 60_000);

  it('takes a transaction data type the tenant’s operator defined, checked against its JSON Schema', async () => {
    const types = createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).transactionDataTypes;
    const type = 'urn:acme:payment:1';
    const schema = {
      type: 'object',
      properties: {
        subject: { type: 'string' },
        iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$' },
        amount: { type: 'object' },
      },
      required: ['subject', 'iban'],
      additionalProperties: false,
    };
    const defined = await types.putTransactionDataType({
      params: { id: f.tenant.id },
      body: { type, schema },
    });
    expect(defined).toMatchObject({ status: 201, body: { type, max_bytes: 4096 } });
    const notObject = await types.putTransactionDataType({
      params: { id: f.tenant.id },
      body: { type: 'urn:acme:x:1', schema: { type: 'string' } },
    });
    expect(notObject).toMatchObject({ status: 400, body: { errors: [{ field: 'schema' }] } });

    const payment = { type, subject: 'Invoice 77', iban: 'ES9121000418450200051332' };
    const bad = await f.integrator.createApproval({
      body: { transaction: { ...payment, iban: 'nope' }, power } as never,
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { errors: [expect.objectContaining({ field: 'transaction.iban' })] },
    });
    const approval = await newApproval({ transaction: payment });
    const wallet = await demoWallet();
    await wallet.present(approval.authorization_request_uri, { approve: true, transactionDataTypes: [type] });
    expect(await approvalOf(approval.approval_id)).toMatchObject({
      status: 'approved',
      transaction: payment,
    });

    const removed = await types.removeTransactionDataType({ params: { id: f.tenant.id }, body: { type } });
    expect(removed).toMatchObject({ status: 200, body: { items: [] } });
    const unknown = await f.integrator.createApproval({ body: { transaction: payment, power } as never });
    expect(unknown).toMatchObject({
      status: 400,
      body: { errors: [expect.objectContaining({ field: 'transaction.type' })] },
    });
  });

  it('refuses unknown types, members the type does not define and amounts that are no numbers (400)', async () => {
    const refused = async (t: Record<string, unknown>, field: string) => {
      const res = await f.integrator.createApproval({ body: { transaction: t, power } as never });
      expect(res).toMatchObject({ status: 400, body: { errors: [expect.objectContaining({ field })] } });
    };
    await refused({ ...transaction, type: 'urn:example:payment' }, 'transaction.type');
    await refused({ ...transaction, iban: 'ES00' }, 'transaction.iban');
    await refused(
      { ...transaction, amount: { value: 'twelve', currency: 'EUR' } },
      'transaction.amount.value',
    );
    expect((await f.integrator.getApproval({ params: { id: 'apr_nothing' } })).status).toBe(404);
  });
});
