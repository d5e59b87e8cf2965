import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createIntegratorClient } from '../../clients/integrator/src/index.js';
import { pemOf } from '../../server/keys/x509-certificate.js';
import { LOTE_SERVICE_TYPES } from '../../server/trust/lists/lote/service-type-uris.js';
import { runAdminCli } from '../support/admin-cli.js';
import { makeLoteOperator } from '../support/lote-operator.js';
import { trustListLifecycle } from '../support/mission/trust-list.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * Trust sources through the admin API and the CLI: a LoTE fetched, validated and used for a PID-like
 * credential (the mission step), requests refused with the field that is wrong, an unreachable list
 * reported in the source's status and the tenant's warnings, never trusted.
 */
let t: TestService;
let tenantId: string;
let dir: string;

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trust-source-cli-'));
});
afterAll(async () => {
  await t?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const sources = () => createClient({ baseUrl: t.baseUrl, token: t.adminToken }).trustSources;

describe('trust sources', () => {
  it('trusts a PID provider a LoTE lists, and stops when the list drops it', async () => {
    const created = await t.admin.getTenant({ params: { id: tenantId } });
    expect(created.status).toBe(200);
    const token = (await t.admin.createTenant({ body: acmeTenant() })).body as {
      id: string;
      integrator_token: string;
    };
    const integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: token.integrator_token });
    await trustListLifecycle(createClient({ baseUrl: t.baseUrl, token: t.adminToken }), integrator, token.id);
  }, 60_000);

  it('refuses what cannot be a source, with the field (400), and unknown tenants and sources (404)', async () => {
    const operator = await makeLoteOperator('Operator');
    const body = {
      type: 'lote' as const,
      url: 'https://lists.example/pid.jwt',
      signer_certificates: [pemOf(operator.certificate)],
      service_types: ['pid_provider' as const],
    };
    const notPem = await sources().addTrustSource({
      params: { id: tenantId },
      body: { ...body, signer_certificates: ['x'] },
    });
    expect(notPem).toMatchObject({ status: 400, body: { errors: [{ field: 'signer_certificates[0]' }] } });
    const badType = await sources().addTrustSource({
      params: { id: tenantId },
      body: { ...body, service_types: ['oracle' as never] },
    });
    expect(badType.status).toBe(400);
    expect((await sources().addTrustSource({ params: { id: 'nobody' }, body })).status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await sources().getTrustSource({ params: { id: tenantId, sourceId: unknown } })).status).toBe(
      404,
    );
    expect((await sources().deleteTrustSource({ params: { id: tenantId, sourceId: unknown } })).status).toBe(
      404,
    );
  });

  it('adds an unreachable list as failed, says so in the tenant’s warnings, and the CLI lists, shows and removes it', async () => {
    const operator = await makeLoteOperator('Operator');
    const file = path.join(dir, 'signer.pem');
    await fs.writeFile(file, pemOf(operator.certificate));
    const cli = (...args: string[]) => runAdminCli(t, 'trust-source', ...args);
    const added = await cli(
      'add',
      tenantId,
      '--type',
      'lote',
      '--url',
      'http://127.0.0.1:9/nothing.jwt',
      '--signer-certificate',
      file,
      '--service-type',
      'wallet_provider',
    );
    expect(added).toMatchObject({
      code: 0,
      body: {
        type: 'lote',
        service_types: ['wallet_provider'],
        status: { state: 'failed', fetched_at: null, entities: 0 },
      },
    });
    expect(added.body.status.error).toMatch(/127\.0\.0\.1|ECONNREFUSED|connect/);
    const tenant = await t.admin.getTenant({ params: { id: tenantId } });
    expect(tenant.status === 200 && tenant.body.warnings.join('\n')).toContain(
      `trust source ${added.body.id}`,
    );
    expect((await cli('list', tenantId)).body.items.map((s: { id: string }) => s.id)).toContain(
      added.body.id,
    );
    expect(await cli('show', tenantId, added.body.id)).toMatchObject({
      code: 0,
      body: { id: added.body.id },
    });
    expect(await cli('refresh', tenantId, added.body.id)).toMatchObject({
      code: 0,
      body: { state: 'failed' },
    });
    expect(await cli('remove', tenantId, added.body.id)).toMatchObject({
      code: 0,
      body: { removed: added.body.id },
    });
    expect(await cli('show', tenantId, added.body.id)).toMatchObject({ code: 1, body: { status: 404 } });
  }, 60_000);

  it('keeps the last good copy when the list server redirects, sends 17 MB or a wrongly shaped list', async () => {
    const operator = await makeLoteOperator('Operator');
    let answer: (res: http.ServerResponse) => void = () => undefined;
    const server = http.createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/list.jwt`;
    try {
      const good = await operator.sign([
        {
          name: 'Wallet Co',
          services: [
            { type: LOTE_SERVICE_TYPES.walletSolutionIssuance, certificates: [operator.certificate] },
          ],
        },
      ]);
      answer = (res) => res.writeHead(200, { 'content-type': 'application/jwt' }).end(good);
      const added = await sources().addTrustSource({
        params: { id: tenantId },
        body: {
          type: 'lote',
          url,
          signer_certificates: [pemOf(operator.certificate)],
          service_types: ['wallet_provider'],
        },
      });
      if (added.status !== 201) throw new Error(JSON.stringify(added.body));
      expect(added.body.status).toMatchObject({ state: 'ok', entities: 1 });
      const refresh = () =>
        sources().refreshTrustSource({ params: { id: tenantId, sourceId: added.body.id } });

      answer = (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      expect(await refresh()).toMatchObject({
        status: 200,
        body: { state: 'stale', entities: 1, error: expect.stringContaining('redirect') },
      });
      answer = (res) =>
        res.writeHead(200, { 'content-type': 'application/jwt' }).end(Buffer.alloc(17 * 1024 * 1024, 0x61));
      expect(await refresh()).toMatchObject({
        status: 200,
        body: { state: 'stale', entities: 1, error: expect.stringContaining('bytes') },
      });
      const wrongShape = await operator.signPayload({ LoTE: { TrustedEntitiesList: 'none' } });
      answer = (res) => res.writeHead(200, { 'content-type': 'application/jwt' }).end(wrongShape);
      expect(await refresh()).toMatchObject({
        status: 200,
        body: { state: 'stale', entities: 1, error: expect.stringContaining('malformed') },
      });
      answer = (res) => res.writeHead(200, { 'content-type': 'application/jwt' }).end(good);
      expect(await refresh()).toMatchObject({ status: 200, body: { state: 'ok', entities: 1, error: null } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
