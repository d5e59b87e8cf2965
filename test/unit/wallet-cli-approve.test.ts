import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileWallet } from '../../clients/wallet/src/file-wallet-store.js';
import { APPROVAL, approvalVerifier, encodeTransactionData, sha256Of } from '../support/approval-request.js';
import { ISSUER, issue, VCT } from '../support/oid4vp-fixtures.js';

/**
 * The wallet CLI asked to approve something: it prints what before it signs, only with --approve,
 * and says so in its JSON. The verifier is in this file, served over loopback HTTP (--allow-http);
 * the CLI runs in its own process with a store written here.
 */
const verifier = await approvalVerifier();
const entry = encodeTransactionData(APPROVAL);
const posted: Record<string, string>[] = [];
let requestJwt = '';
let base = '';
let store = '';

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/request') {
    res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end(requestJwt);
    return;
  }
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    posted.push(Object.fromEntries(new URLSearchParams(body)));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  requestJwt = await verifier.requestObject(
    { credentials: [{ id: 'employee', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } }] },
    {
      response_uri: `${base}/response`,
      client_metadata: { vp_formats_supported: { 'dc+sd-jwt': {} } },
      transaction_data: [entry],
    },
  );
  store = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-wallet-approve-'));
  const { crypto, store: credentials } = fileWallet(store);
  const key = await crypto.createKey();
  const compact = await issue({ holderJwk: key.publicJwk });
  await credentials.save({
    ...{ id: 'c1', format: 'dc+sd-jwt', compact, issuer: ISSUER, vct: VCT, claims: {} },
    ...{ holderKeyId: key.id, receivedAt: new Date() },
  });
});
afterAll(async () => {
  server.close();
  await fs.rm(store, { recursive: true, force: true });
});

async function present(...args: string[]) {
  const link = `openid4vp://?client_id=${encodeURIComponent(verifier.clientId)}&request_uri=${encodeURIComponent(`${base}/request`)}`;
  const cli = ['--import', 'tsx', 'clients/wallet/cli.ts', 'present', link, '--store', store, '--allow-http'];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...cli, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('wallet CLI present with transaction data', () => {
  it('without --approve prints what is asked, sends nothing and exits 1', async () => {
    const run = await present();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not approved: the verifier asks you to approve/);
    expect(run.stderr).toContain('urn:credservice:approval:1: PO-2026-0042');
    expect(run.stderr).toContain('amount: 12400.00 EUR');
    expect(run.stderr).toMatch(/run again with --approve/);
    expect(posted).toEqual([]);
  });

  it('--dry-run lists would_approve; --approve prints it, signs it and lists it as approved', async () => {
    const dry = JSON.parse((await present('--dry-run')).stdout);
    expect(dry.would_approve).toEqual([expect.objectContaining({ subject: 'PO-2026-0042' })]);
    const run = await present('--approve');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^approving:\n {2}- urn:credservice:approval:1: PO-2026-0042\n/);
    expect(run.stderr).toContain(APPROVAL.description);
    const out = JSON.parse(run.stdout);
    expect(out.approved).toEqual([
      {
        type: APPROVAL.type,
        credential_ids: ['employee'],
        subject: 'PO-2026-0042',
        description: APPROVAL.description,
        amount: '12400.00 EUR',
      },
    ]);
    const presentation = JSON.parse(posted[0]?.vp_token ?? '{}').employee[0] as string;
    const kb = JSON.parse(Buffer.from(presentation.split('.').at(-2) ?? '', 'base64url').toString());
    expect(kb.transaction_data_hashes).toEqual([sha256Of(entry)]);
  });
});
