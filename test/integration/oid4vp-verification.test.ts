import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import {
  buildDcqlForVct,
  cachedStatusListFetcher,
  trustedIssuersFromMetadata,
  type VerificationContext,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import { publishedStatus } from '../support/credential-status.js';
import { employeePayload } from '../support/fixtures.js';
import { CLIENT_ID, holder, kbJwt, NONCE, named, selectDisclosures } from '../support/oid4vp-fixtures.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * The verifier against the real service: credentials it issues, keys from its
 * /.well-known/jwt-vc-issuer (issuer and status-list keys), status lists over HTTP, and revocation
 * through the integrator API showing up in verification.
 */

let t: TestService;
let integrator: ReturnType<typeof createIntegratorClient>;
let ctx: VerificationContext;

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error('no tenant');
  integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: created.body.integrator_token });
  const fetchJson = async (url: string) => {
    const res = await fetch(url, { redirect: 'error' });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return res.json();
  };
  ctx = {
    nonce: NONCE,
    clientId: CLIENT_ID,
    trustedIssuers: trustedIssuersFromMetadata([t.service.context.config.issuerUrl], fetchJson),
    fetchStatusList: async (uri) => {
      const res = await fetch(uri, { headers: { accept: 'application/statuslist+jwt' }, redirect: 'error' });
      if (!res.ok) throw new Error(`${uri} answered ${res.status}`);
      return res.text();
    },
  };
});
afterAll(() => t?.stop());

async function issueDirect() {
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'direct',
      holder_key: holder.publicJwk as never,
    },
  });
  if (res.status !== 201 || !res.body.credential || !res.body.credential_id) throw new Error('not issued');
  return { credential: res.body.credential, id: res.body.credential_id };
}

async function presentEmail(credential: string) {
  const sdJwt = selectDisclosures(credential, named('email'));
  return sdJwt + (await kbJwt(sdJwt, { iat: Math.floor(Date.now() / 1000) }));
}

const vctOf = (credential: string) =>
  JSON.parse(Buffer.from(credential.split('.')[1] ?? '', 'base64url').toString()).vct as string;

describe('verifyVpToken against the running service', () => {
  it('verifies a LEARCredentialEmployee with the published keys and status list', async () => {
    const { credential } = await issueDirect();
    const query = buildDcqlForVct(vctOf(credential), [['mandatee', 'email'], ['mandator']], 'employee');
    const vp = await presentEmail(credential);
    const result = await verifyVpToken({ employee: [vp] }, query, ctx);
    expect(result.credentials[0]).toMatchObject({
      issuer: t.service.context.config.issuerUrl,
      vct: vctOf(credential),
      claims: { mandatee: { email: 'ana.ruiz@acme.test' }, mandator: { organization: 'ACME Corp' } },
    });
    expect(result.credentials[0]?.claims.mandatee).not.toHaveProperty('firstName');
  });

  it('refuses the credential once it is suspended, and again once revoked', async () => {
    const { credential, id } = await issueDirect();
    const query = buildDcqlForVct(vctOf(credential), [['mandatee', 'email']], 'employee');
    const signer = t.service.context.signer;
    await integrator.suspendCredential({ params: { id } });
    await publishedStatus(t.baseUrl, signer, credential, 2);
    await expect(
      verifyVpToken({ employee: [await presentEmail(credential)] }, query, ctx),
    ).rejects.toMatchObject({
      code: 'suspended',
    });
    await integrator.revokeCredential({ params: { id } });
    await publishedStatus(t.baseUrl, signer, credential, 1);
    await expect(
      verifyVpToken({ employee: [await presentEmail(credential)] }, query, ctx),
    ).rejects.toMatchObject({
      code: 'revoked',
    });
  });

  it('caches each status list for its ttl', async () => {
    const { credential } = await issueDirect();
    const query = buildDcqlForVct(vctOf(credential), [], 'employee');
    let fetches = 0;
    const fetchStatusList = cachedStatusListFetcher(async (uri) => {
      fetches++;
      return ctx.fetchStatusList(uri);
    });
    for (let i = 0; i < 3; i++)
      await verifyVpToken({ employee: [await presentEmail(credential)] }, query, { ...ctx, fetchStatusList });
    expect(fetches).toBe(1);
  });
});
