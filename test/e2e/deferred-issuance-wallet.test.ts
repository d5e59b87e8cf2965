import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeferredIssuance,
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  OAuthError,
} from '../../clients/wallet/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { until } from '../support/until.js';

/**
 * Our demo wallet meets a deferred issuance (OID4VCI 1.0 section 8.3): `receive` with
 * `deferredTimeoutMs` (the CLI's `receive --wait SECONDS`) asks the deferred credential endpoint
 * every interval until the integrator approves; without it the deferral is an error that names the
 * transaction_id.
 */
const http = { allowHttp: true };
let f: TenantFixture;
let store: string;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
  store = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-wallet-'));
});
afterAll(async () => {
  await f?.stop();
  if (store) await fs.rm(store, { recursive: true, force: true });
});

const approvalOffer = () =>
  mailedOffer(f.integrator, f.smtp, `holder${++n}@example.test`, employeePayload(), undefined, {
    approvalRequired: true,
  });
const statusOf = async (id: string) => {
  const res = await f.integrator.getIssuance({ params: { id } });
  return res.status === 200 ? res.body.status : `http ${res.status}`;
};
/** Approves the issuance as soon as the wallet's request waits for it. */
const approveWhenAsked = async (id: string) => {
  await until(
    () => statusOf(id),
    (s) => s === 'awaiting_approval',
  );
  expect((await f.integrator.approveIssuance({ params: { id } })).status).toBe(200);
};

/** Runs clients/wallet/cli.ts in its own node process. */
async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'clients/wallet/cli.ts', ...args, '--store', store, '--allow-http'],
      { timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('our wallet and a deferred issuance', () => {
  const newWallet = () =>
    new HolderWallet({ crypto: inMemoryHolderCrypto(), store: inMemoryCredentialStore(), http });

  it('waits for the approval with receive({ deferredTimeoutMs }) and stores the credential', async () => {
    const offer = await approvalOffer();
    const receiving = newWallet().receive(offer.offerUri, {
      txCode: offer.txCode,
      deferredTimeoutMs: 60_000,
    });
    await approveWhenAsked(offer.offerId);
    const stored = await receiving;
    expect(stored).toHaveLength(1);
    expect(stored[0]?.claims).toMatchObject({ mandatee: expect.any(Object) });
    expect(await statusOf(offer.offerId)).toBe('issued');
  });

  it('without deferredTimeoutMs, receive throws DeferredIssuance with the transaction_id', async () => {
    const offer = await approvalOffer();
    const e = await newWallet()
      .receive(offer.offerUri, { txCode: offer.txCode })
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    expect(e).toBeInstanceOf(DeferredIssuance);
    expect(e).not.toBeInstanceOf(OAuthError);
    expect((e as DeferredIssuance).transactionId).toEqual(expect.any(String));
  });

  it('CLI: receive --wait waits for the approval; without it, the deferral is reported', async () => {
    const waited = await approvalOffer();
    const receiving = cli('receive', waited.offerUri, '--tx-code', waited.txCode, '--wait', '50');
    await approveWhenAsked(waited.offerId);
    const run = await receiving;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).credentials).toHaveLength(1);

    const plain = await approvalOffer();
    const deferred = await cli('receive', plain.offerUri, '--tx-code', plain.txCode);
    expect(deferred.code).toBe(1);
    expect(deferred.stderr).toMatch(/^deferred: .*transaction_id .*--wait/);
  });
});
