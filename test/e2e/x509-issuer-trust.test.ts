import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createIntegratorClient } from '../../clients/integrator/src/index.js';
import { runAdminCli } from '../support/admin-cli.js';
import { issueDirectCredential } from '../support/fixtures.js';
import { type IssuerPki, issuerPki, issueWithX5c, keyIdOf } from '../support/issuer-x509.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * X.509 issuer trust through the real endpoints: the operator registers a root for the tenant with
 * the CLI, the integrator starts a session restricted to the tenant's anchors, a third-party wallet
 * presents credentials signed under that root and under another one, and the session result says
 * which trust path accepted the issuer, or why it was refused.
 */
const HOST = 'issuer.partner.test';
const VCT = `https://${HOST}/credentials/badge`;

let t: TestService;
let tenantId: string;
let integrator: ReturnType<typeof createIntegratorClient>;
let pki: IssuerPki;
let rogue: IssuerPki;
let dir: string;

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: created.body.integrator_token });
  [pki, rogue] = await Promise.all([issuerPki(HOST, 'Partner'), issuerPki(HOST, 'Rogue')]);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trust-anchor-cli-'));
});
afterAll(async () => {
  await t?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const cli = async (...args: string[]) => (await runAdminCli(t, ...args)).body;

const badge = async (holder: ThirdPartyHolder, ca: IssuerPki) =>
  issueWithX5c({
    signer: ca.leaf,
    x5c: [ca.leaf.base64, ca.intermediate.base64],
    payload: {
      iss: `https://${HOST}`,
      vct: VCT,
      iat: Math.floor(Date.now() / 1000) - 60,
      cnf: { jwk: holder.holderJwk },
      email: 'ana@partner.test',
    },
    disclosable: ['email'],
  });

async function presentBadge(ca: IssuerPki, restrict = true) {
  const session = await integrator.createAuthorizationRequest({
    body: {
      dcql_query: {
        credentials: [
          { id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['email'] }] },
        ],
      },
      restrict_to_trust_anchors: restrict,
    },
  });
  if (session.status !== 201) throw new Error(`session: ${session.status} ${JSON.stringify(session.body)}`);
  const holder = await ThirdPartyHolder.create();
  const answer = await holder.present(session.body.authorization_request_uri, [await badge(holder, ca)]);
  const polled = await integrator.getAuthorizationRequest({ params: { id: session.body.session_id } });
  return { answer, result: polled.body };
}

const rootSha256 = () => createHash('sha256').update(Buffer.from(pki.root.cert.rawData)).digest('hex');

describe('a tenant that registered its partner’s root', () => {
  it('registers it with the CLI (400 for what is no CA root, 404 for an unknown tenant)', async () => {
    const file = path.join(dir, 'root.pem');
    await fs.writeFile(file, pki.root.pem);
    expect(await cli('trust-anchor', 'add', tenantId, file)).toMatchObject({
      sha256: rootSha256(),
      subject: 'CN=Partner Root CA',
      key_identifier: keyIdOf(pki.root),
    });
    expect((await cli('trust-anchor', 'list', tenantId)).items).toHaveLength(1);

    const anchors = createClient({ baseUrl: t.baseUrl, token: t.adminToken }).trustedIssuers;
    const leaf = await anchors.addTrustAnchor({
      params: { id: tenantId },
      body: { certificate: pki.leaf.pem },
    });
    expect(leaf).toMatchObject({ status: 400, body: { errors: [{ field: 'certificate' }] } });
    const junk = await anchors.addTrustAnchor({
      params: { id: tenantId },
      body: { certificate: 'not a pem' },
    });
    expect(junk.status).toBe(400);
    const nobody = await anchors.listTrustAnchors({ params: { id: 'nobody' } });
    expect(nobody.status).toBe(404);
    const again = await anchors.addTrustAnchor({
      params: { id: tenantId },
      body: { certificate: pki.root.pem },
    });
    expect(again).toMatchObject({ status: 200, body: { sha256: rootSha256() } });
    const unknown = await anchors.deleteTrustAnchor({ params: { id: tenantId, sha256: 'f'.repeat(64) } });
    expect(unknown.status).toBe(404);
  });

  it('accepts a credential signed under it, restricted by aki, and says the trust path was x509', async () => {
    const { answer, result } = await presentBadge(pki);
    const query = answer.resolved.dcql?.query as { credentials: { trusted_authorities?: unknown }[] };
    expect(query.credentials[0]?.trusted_authorities).toEqual([{ type: 'aki', values: [keyIdOf(pki.root)] }]);
    expect(answer.status).toBe(200);
    expect(result).toMatchObject({
      status: 'verified',
      claims: { iss: `https://${HOST}`, email: 'ana@partner.test' },
      trust: { method: 'x509', anchor: rootSha256(), anchor_subject: 'CN=Partner Root CA' },
    });
  });

  it('still trusts this service’s own issuer by its keys', async () => {
    const holder = await ThirdPartyHolder.create();
    const credential = await issueDirectCredential(integrator, holder.holderJwk);
    const session = await integrator.createAuthorizationRequest({
      body: { credential_configuration_id: 'LEARCredentialEmployee' },
    });
    if (session.status !== 201) throw new Error('no session');
    const answer = await holder.present(session.body.authorization_request_uri, [credential]);
    expect(answer.status).toBe(200);
    const polled = await integrator.getAuthorizationRequest({ params: { id: session.body.session_id } });
    expect(polled.body).toMatchObject({ status: 'verified', trust: { method: 'jwks' } });
  });

  it('refuses one signed under another root, with the reason', async () => {
    const { answer, result } = await presentBadge(rogue);
    expect(answer.status).toBe(400);
    expect(result).toMatchObject({ status: 'failed', reason: 'certificate_untrusted' });
  });

  it('once the root is removed, neither restricts sessions nor trusts the partner', async () => {
    expect(await cli('trust-anchor', 'remove', tenantId, rootSha256())).toEqual({ removed: rootSha256() });
    expect(await cli('trust-anchor', 'list', tenantId)).toEqual({ items: [] });
    const refused = await integrator.createAuthorizationRequest({
      body: {
        dcql_query: { credentials: [{ id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } }] },
        restrict_to_trust_anchors: true,
      },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'restrict_to_trust_anchors' }] },
    });
    const { result } = await presentBadge(pki, false);
    expect(result).toMatchObject({ status: 'failed', reason: 'untrusted_issuer' });
  });
});
