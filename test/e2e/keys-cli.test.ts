import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../support/admin-cli.js';
import { makeTestCa } from '../support/test-ca.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { x509 } from '../support/x5c-validation.js';

/**
 * The admin CLI's certificate commands as an operator types them: a CSR written to a file, a chain
 * from a CA (made here) imported from a file, the development root saved for a test verifier.
 */
let t: TestService;
let dir: string;
beforeAll(async () => {
  t = await startTestService();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keys-cli-'));
});
afterAll(async () => {
  await t.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runAdminCli(t, ...args);

describe('npm run cli -- keys …', () => {
  it('csr to a file, import-chain from a file, development-ca to a file', async () => {
    const csrFile = path.join(dir, 'verifier.csr');
    const csr = await cli('keys', 'csr', 'verifier', '--subject', 'CN=verifier.acme.test', '--out', csrFile);
    // The CLI's stderr as the message: a failure that prints nothing on stdout still says why.
    expect(csr, `${csr.stderr} stdout: ${csr.stdout}`).toMatchObject({
      code: 0,
      body: { purpose: 'verifier', subject: 'CN=verifier.acme.test' },
    });
    const ca = await makeTestCa('CLI');
    const leaf = await ca.issue(await fs.readFile(csrFile, 'utf8'));
    const chainFile = path.join(dir, 'chain.pem');
    await fs.writeFile(chainFile, ca.pemChain(leaf));
    const imported = await cli('keys', 'import-chain', csr.body.kid, chainFile);
    expect(imported, `${imported.stderr} stdout: ${imported.stdout}`).toMatchObject({
      code: 0,
      body: { kid: csr.body.kid, certificate_source: 'imported' },
    });
    expect(await t.service.context.signer.certificateChain('verifier')).toEqual([
      Buffer.from(leaf.rawData).toString('base64'),
      Buffer.from(ca.intermediate.rawData).toString('base64'),
    ]);

    // The same file again for another key: refused, exit code 1, the problem printed.
    const issuerKid = await t.service.context.signer.activeKid('issuer');
    const again = await cli('keys', 'import-chain', issuerKid, chainFile);
    expect(again, `${again.stderr} stdout: ${again.stdout}`).toMatchObject({
      code: 1,
      body: { status: 400, errors: [{ field: 'certificate_chain' }] },
    });

    const rootFile = path.join(dir, 'root.pem');
    expect((await cli('keys', 'development-ca', '--out', rootFile)).code).toBe(0);
    const root = new x509.X509Certificate(await fs.readFile(rootFile, 'utf8'));
    expect(await root.isSelfSigned()).toBe(true);
  });
});
