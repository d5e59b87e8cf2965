import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { tenantTrustChanged } from '../../server/trust/tenant-trust.js';
import { TrustSourceRow } from '../../server/trust/trust-source.entity.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { makeTestRegistrar, type TestRegistrar, verifierRegistration } from '../support/test-registrar.js';

/**
 * A tenant that trusts registrars through a trust source (service type `registrar`) accepts a
 * verifier registration certificate only from a registrar the list names; the source rows are
 * written as a validated fetch leaves them, with no worker due to fetch them.
 */
let f: TenantFixture;
let listed: TestRegistrar;
let unlisted: TestRegistrar;
const ORG = 'VATES-B12345678'; // acmeTenant's mandator
const DAY = 86_400_000;

beforeAll(async () => {
  [f, listed, unlisted] = await Promise.all([
    startTenantFixture(),
    makeTestRegistrar('Listed Registrar'),
    makeTestRegistrar('Unlisted Registrar'),
  ]);
});
afterAll(() => f.stop());

const put = (certificate: string) =>
  createClient({
    baseUrl: f.t.baseUrl,
    token: f.t.adminToken,
  }).registrationCertificates.putVerifierRegistrationCertificate({
    params: { id: f.tenant.id },
    body: { certificate },
  });

async function listRegistrar(root: string) {
  await f.t.service.context.orm.em.fork().transactional(async (tx) => {
    await tx.insert(TrustSourceRow, {
      id: randomUUID(),
      tenantId: f.tenant.id,
      type: 'lote',
      url: 'https://lists.example/registrars.jwt',
      signerCertificates: [],
      serviceTypes: ['registrar'],
      createdAt: new Date(),
      listed: [{ entity: 'National Registrar', serviceType: 'registrar', certificates: [root] }],
      fetchedAt: new Date(),
      nextUpdate: new Date(Date.now() + DAY),
      nextFetchAt: new Date(Date.now() + 365 * DAY),
    });
    await tenantTrustChanged(tx, f.tenant.id);
  });
}

describe('registrars trusted through a trust source', () => {
  it('accepts any registrar until the tenant lists registrars, then only a listed one', async () => {
    expect((await put(await unlisted.issue(verifierRegistration(ORG)))).status).toBe(200);
    await listRegistrar(listed.root);
    const refused = await put(await unlisted.issue(verifierRegistration(ORG)));
    expect(refused).toMatchObject({
      status: 400,
      body: {
        errors: [{ field: 'certificate', message: expect.stringContaining('registrar is not trusted') }],
      },
    });
    expect(await put(await listed.issue(verifierRegistration(ORG)))).toMatchObject({
      status: 200,
      body: { role: 'verifier', issuer: expect.stringContaining('Listed Registrar') },
    });
  });
});
