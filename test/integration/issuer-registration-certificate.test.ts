import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { runAdminCli } from '../support/admin-cli.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import {
  issuerRegistration,
  makeTestRegistrar,
  type TestRegistrar,
  verifierRegistration,
} from '../support/test-registrar.js';
import { decodeHeader, decodePayload, validateX5c, verifiesWith } from '../support/x5c-validation.js';

/**
 * The credential issuer's registration certificate (ETSI TS 119 475): one per deployment, published
 * as `issuer_info` (ETSI TS 119 472-3) in the issuer metadata, JSON and signed; and the CLI that
 * imports registration certificates from files.
 */
let f: TenantFixture;
let registrar: TestRegistrar;
let developmentRoot: string;
let dir: string;

beforeAll(async () => {
  [f, registrar, dir] = await Promise.all([
    startTenantFixture(),
    makeTestRegistrar(),
    fs.mkdtemp(path.join(os.tmpdir(), 'registration-')),
  ]);
  const ca = await f.t.admin.getDevelopmentCa();
  if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
  developmentRoot = ca.body.certificate;
});
afterAll(async () => {
  await f.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const api = () => createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).registrationCertificates;
const metadataUrl = () => `${f.t.baseUrl}/.well-known/openid-credential-issuer`;
const jsonMetadata = async () => (await (await fetch(metadataUrl())).json()) as Record<string, unknown>;

/** The signed metadata, its signature checked with the issuer's x5c chain to the development root. */
async function signedMetadata(): Promise<Record<string, unknown>> {
  const res = await fetch(metadataUrl(), { headers: { accept: 'application/jwt' } });
  expect(res.headers.get('content-type')).toMatch(/^application\/jwt/);
  const jwt = await res.text();
  const leaf = await validateX5c(decodeHeader(jwt).x5c, developmentRoot);
  const [h, p, s] = jwt.split('.') as [string, string, string];
  expect(await verifiesWith(leaf, `${h}.${p}`, s)).toBe(true);
  return decodePayload(jwt);
}

describe('issuer registration certificate', () => {
  it('is absent from the metadata until imported', async () => {
    expect((await api().getIssuerRegistrationCertificate()).status).toBe(404);
    expect(await jsonMetadata()).not.toHaveProperty('issuer_info');
    expect(await signedMetadata()).not.toHaveProperty('issuer_info');
  });

  it('refuses a relying party’s registration as the issuer’s, and stores nothing', async () => {
    const certificate = await registrar.issue(verifierRegistration('VATES-B12345678'));
    const res = await api().putIssuerRegistrationCertificate({ body: { certificate } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errors: [{ field: 'certificate', message: expect.stringMatching(/entitlements/) }],
    });
    expect((await api().getIssuerRegistrationCertificate()).status).toBe(404);
  });

  it('once imported, the JSON and the signed metadata carry it as issuer_info', async () => {
    const jwt = await registrar.issue(issuerRegistration('VATES-B12345678'));
    const res = await api().putIssuerRegistrationCertificate({ body: { certificate: jwt } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ role: 'issuer', format: 'registration_cert' });
    const issuerInfo = [{ format: 'registration_cert', data: jwt }];
    expect((await jsonMetadata()).issuer_info).toEqual(issuerInfo);
    expect((await signedMetadata()).issuer_info).toEqual(issuerInfo);
    // The certificate itself verifies with its own x5c, to the registrar's root.
    const [h, p, s] = jwt.split('.') as [string, string, string];
    const leaf = await validateX5c(decodeHeader(jwt).x5c, registrar.root);
    expect(await verifiesWith(leaf, `${h}.${p}`, s)).toBe(true);

    expect((await api().deleteIssuerRegistrationCertificate()).status).toBe(204);
    expect(await jsonMetadata()).not.toHaveProperty('issuer_info');
    expect(await signedMetadata()).not.toHaveProperty('issuer_info');
  });

  it('the CLI imports, shows and removes them from files', async () => {
    const issuerFile = path.join(dir, 'issuer.jwt');
    const verifierFile = path.join(dir, 'verifier.jwt');
    const issuerJwt = await registrar.issue(issuerRegistration('VATES-B12345678'));
    await fs.writeFile(issuerFile, `${issuerJwt}\n`);
    await fs.writeFile(verifierFile, await registrar.issue(verifierRegistration('VATES-B12345678')));

    const imported = await runAdminCli(f.t, 'registration-certificate', 'import', 'issuer', issuerFile);
    expect(imported).toMatchObject({
      code: 0,
      body: { role: 'issuer', subject: expect.stringContaining('ACME') },
    });
    expect((await jsonMetadata()).issuer_info).toEqual([{ format: 'registration_cert', data: issuerJwt }]);
    const shown = await runAdminCli(f.t, 'registration-certificate', 'show', 'issuer');
    expect(shown).toMatchObject({ code: 0, body: imported.body });

    const tenant = f.tenant.id;
    const verifier = await runAdminCli(
      f.t,
      'registration-certificate',
      'import',
      'verifier',
      tenant,
      verifierFile,
    );
    expect(verifier).toMatchObject({ code: 0, body: { role: 'verifier' } });
    const removed = await runAdminCli(f.t, 'registration-certificate', 'remove', 'verifier', tenant);
    expect(removed).toMatchObject({ code: 0, body: { removed: 'verifier' } });
    const refused = await runAdminCli(
      f.t,
      'registration-certificate',
      'import',
      'verifier',
      tenant,
      issuerFile,
    );
    expect(refused).toMatchObject({ code: 1, body: { status: 400, errors: [{ field: 'certificate' }] } });
  });
});
