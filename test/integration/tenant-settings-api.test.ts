import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createIntegratorClient } from '../../clients/integrator/src/index.js';
import { makeTestCa } from '../support/test-ca.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * The tenant's own webhooks, tokens and trust anchors through its integrator token (what the console
 * uses): the tenant comes from the token, so another tenant's ids are 404s, never a way in.
 */
let t: TestService;
const tenants: { id: string; integrator_token: string }[] = [];
const clientOf = (i: number) =>
  createIntegratorClient({ baseUrl: t.baseUrl, token: tenants[i]?.integrator_token ?? '' });
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestService();
  for (let i = 0; i < 2; i++) {
    const created = await t.admin.createTenant({ body: acmeTenant() });
    if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
    tenants.push(created.body);
  }
}, 60_000);
afterAll(async () => t?.stop());

describe('the tenant-scoped settings API', () => {
  it("lists and rotates only the token's tenant's webhooks", async () => {
    const hooks = createClient({ baseUrl: t.baseUrl, token: t.adminToken }).webhooks;
    const created = await hooks.createWebhook({
      params: { id: tenants[0]?.id ?? '' },
      body: { url: 'https://hooks.example.test/in' },
    });
    if (created.status !== 201) throw new Error(`webhook: ${created.status}`);
    const own = await clientOf(0).listTenantWebhooks();
    expect(own.status === 200 && own.body.items.map((w) => w.id)).toEqual([created.body.id]);
    const other = await clientOf(1).listTenantWebhooks();
    expect(other.status === 200 && other.body.items).toEqual([]);
    const params = { webhookId: created.body.id };
    expect((await clientOf(1).rotateTenantWebhookSecret({ params, body: {} })).status).toBe(404);
    expect((await clientOf(1).listTenantWebhookDeliveries({ params, query: {} })).status).toBe(404);
    const rotated = await clientOf(0).rotateTenantWebhookSecret({ params, body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.status === 200 && rotated.body.secret).not.toBe(created.body.secret);
  });

  it('makes tokens that must expire within a year, and revokes only its own', async () => {
    const soon = new Date(Date.now() + 30 * DAY).toISOString();
    for (const expires_at of [
      new Date(Date.now() - DAY).toISOString(),
      new Date(Date.now() + 400 * DAY).toISOString(),
    ])
      expect((await clientOf(0).createTenantToken({ body: { kind: 'scim', expires_at } })).status).toBe(400);
    const made = await clientOf(0).createTenantToken({ body: { kind: 'integrator', expires_at: soon } });
    if (made.status !== 201) throw new Error(`token: ${made.status}`);
    expect(made.body).toMatchObject({ kind: 'integrator', scope: 'full', expires_at: soon });
    const params = { tokenId: made.body.id };
    expect((await clientOf(1).revokeTenantToken({ params })).status).toBe(404);
    const listed = await clientOf(0).listTenantTokens();
    expect(listed.status === 200 && listed.body.items.some((k) => k.id === made.body.id)).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
    expect((await clientOf(0).revokeTenantToken({ params })).status).toBe(200);
    const revoked = createIntegratorClient({ baseUrl: t.baseUrl, token: made.body.token });
    expect((await revoked.whoAmI()).status).toBe(401);
  });

  it("adds and removes trust anchors of the token's tenant only", async () => {
    const ca = await makeTestCa('Tenant API');
    const added = await clientOf(0).addTenantTrustAnchor({ body: { certificate: ca.root.toString('pem') } });
    if (added.status !== 201) throw new Error(`anchor: ${added.status}`);
    const again = await clientOf(0).addTenantTrustAnchor({ body: { certificate: ca.root.toString('pem') } });
    expect(again.status).toBe(200);
    const admin = createClient({ baseUrl: t.baseUrl, token: t.adminToken }).trustedIssuers;
    const seen = await admin.listTrustAnchors({ params: { id: tenants[0]?.id ?? '' } });
    expect(seen.status === 200 && seen.body.items.map((a) => a.sha256)).toEqual([added.body.sha256]);
    const params = { sha256: added.body.sha256 };
    expect((await clientOf(1).deleteTenantTrustAnchor({ params })).status).toBe(404);
    expect((await clientOf(0).deleteTenantTrustAnchor({ params })).status).toBe(204);
    const audited = await t.admin.listAuditEvents({
      params: { id: tenants[0]?.id ?? '' },
      query: { action: 'verifier.trust_anchor_removed' } as never,
    });
    expect(audited.status === 200 && audited.body.items[0]?.actor).toMatch(/^integrator:/);
  });
});

describe("the tenant's presentation sessions and approvals as lists", () => {
  it("lists only the token's tenant's sessions, newest first, by status and page, without claims", async () => {
    const started: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await clientOf(0).createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee' },
      });
      if (created.status !== 201) throw new Error(`session: ${created.status}`);
      started.unshift(created.body.session_id);
    }
    const first = await clientOf(0).listAuthorizationRequests({ query: { limit: 2 } });
    if (first.status !== 200) throw new Error(`list: ${first.status}`);
    expect(first.body.more).toBe(true);
    expect(first.body.items[0]).toEqual({
      session_id: started[0],
      created_at: expect.any(String),
      status: 'pending',
      reason: null,
      credential_types: ['LEARCredentialEmployee'],
      response_mode: 'direct_post.jwt',
      approval_id: null,
    });
    const before = first.body.items.at(-1)?.created_at;
    const rest = await clientOf(0).listAuthorizationRequests({ query: { limit: 2, before } });
    const ids = [...first.body.items, ...(rest.status === 200 ? rest.body.items : [])].map(
      (s) => s.session_id,
    );
    expect(ids).toEqual(started);
    const verified = await clientOf(0).listAuthorizationRequests({ query: { status: 'verified' } });
    expect(verified.status === 200 && verified.body.items).toEqual([]);
    const other = await clientOf(1).listAuthorizationRequests({ query: {} });
    expect(other.status === 200 && other.body.items).toEqual([]);
    expect((await clientOf(1).getAuthorizationRequest({ params: { id: started[0] ?? '' } })).status).toBe(
      404,
    );
  });

  it("lists only the token's tenant's approvals with their transaction and power", async () => {
    const created = await clientOf(0).createApproval({
      body: {
        transaction: { type: 'urn:credservice:approval:1', subject: 'PO-4711' },
        power: { function: 'Purchasing', action: 'Approve' },
      },
    });
    if (created.status !== 201) throw new Error(`approval: ${created.status}`);
    const listed = await clientOf(0).listApprovals({ query: { status: 'pending' } });
    expect(listed.status === 200 && listed.body.items).toEqual([
      {
        approval_id: created.body.approval_id,
        session_id: created.body.session_id,
        created_at: expect.any(String),
        status: 'pending',
        reason: null,
        transaction: { type: 'urn:credservice:approval:1', subject: 'PO-4711' },
        power: { function: 'Purchasing', action: 'Approve' },
        issuance_id: null,
      },
    ]);
    const failed = await clientOf(0).listApprovals({ query: { status: 'failed' } });
    expect(failed.status === 200 && failed.body.items).toEqual([]);
    const other = await clientOf(1).listApprovals({ query: {} });
    expect(other.status === 200 && other.body.items).toEqual([]);
  });
});

describe("the tenant's relying parties", () => {
  it("registers, lists and removes the token's tenant's relying parties only", async () => {
    const made = await clientOf(0).createTenantOidcClient({
      body: {
        client_name: 'Intranet',
        redirect_uris: ['https://intranet.example.test/cb'],
        credential_configuration_id: 'LEARCredentialEmployee',
      },
    });
    if (made.status !== 201) throw new Error(`client: ${made.status}`);
    expect(made.body.client_secret).toEqual(expect.any(String));
    const own = await clientOf(0).listTenantOidcClients();
    expect(own.status === 200 && own.body.items.map((c) => c.client_id)).toEqual([made.body.client_id]);
    expect(JSON.stringify(own.body)).not.toContain(made.body.client_secret);
    const other = await clientOf(1).listTenantOidcClients();
    expect(other.status === 200 && other.body.items).toEqual([]);
    const params = { clientId: made.body.client_id };
    expect((await clientOf(1).deleteTenantOidcClient({ params })).status).toBe(404);
    expect((await clientOf(0).deleteTenantOidcClient({ params })).status).toBe(204);
    const admin = await t.admin.listOidcClients({ params: { id: tenants[0]?.id ?? '' } });
    expect(admin.status === 200 && admin.body.items).toEqual([]);
  });
});

describe("the tenant's trusted issuers and trust sources", () => {
  it("changes the token's tenant's trusted issuers and trust sources only", async () => {
    const jwks = {
      keys: [
        {
          kty: 'EC',
          crv: 'P-256',
          x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
          y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
        },
      ],
    };
    const issuer = 'https://issuer.example.test';
    const trusted = await clientOf(0).putTenantTrustedIssuer({ body: { issuer, jwks } });
    expect(trusted.status).toBe(201);
    const own = await clientOf(0).listTenantTrustedIssuers();
    expect(own.status === 200 && own.body.items.map((i) => i.issuer)).toEqual([issuer]);
    const other = await clientOf(1).listTenantTrustedIssuers();
    expect(other.status === 200 && other.body.items).toEqual([]);
    const removed = await clientOf(0).removeTenantTrustedIssuer({ body: { issuer } });
    expect(removed.status === 200 && removed.body.items).toEqual([]);

    const ca = await makeTestCa('List operator');
    const added = await clientOf(0).addTenantTrustSource({
      body: {
        type: 'trusted_list',
        url: 'https://127.0.0.1:9/tl.xml',
        signer_certificates: [ca.root.toString('pem')],
        service_types: ['pid_provider'],
      },
    });
    if (added.status !== 201) throw new Error(`source: ${added.status}`);
    // Nothing answers there: the source is kept, and its status says it failed, and why.
    expect(added.body.status).toMatchObject({ state: 'failed', error: expect.any(String) });
    const params = { sourceId: added.body.id };
    expect((await clientOf(1).refreshTenantTrustSource({ params })).status).toBe(404);
    expect((await clientOf(1).deleteTenantTrustSource({ params })).status).toBe(404);
    const others = await clientOf(1).listTenantTrustSources();
    expect(others.status === 200 && others.body.items).toEqual([]);
    const refreshed = await clientOf(0).refreshTenantTrustSource({ params });
    expect(refreshed.status === 200 && refreshed.body.state).toBe('failed');
    expect((await clientOf(0).deleteTenantTrustSource({ params })).status).toBe(204);
    const left = await clientOf(0).listTenantTrustSources();
    expect(left.status === 200 && left.body.items).toEqual([]);
  });
});
