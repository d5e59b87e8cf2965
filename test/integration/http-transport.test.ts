import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A deployment outside local development (PUBLIC_URL is https) behind a TLS-terminating proxy on the
 * loopback interface (TRUST_PROXY=loopback): plain HTTP carries no token, the proxy's
 * X-Forwarded-Proto counts, HSTS only over HTTPS. A second node trusts no proxy (the default).
 */
let behindProxy: TestService;
let trustsNoProxy: TestService;

beforeAll(async () => {
  const env = { PUBLIC_URL: 'https://credentials.example' };
  behindProxy = await startTestService({ redis: false, env: { ...env, TRUST_PROXY: 'loopback' } });
  trustsNoProxy = await startTestService({ redis: false, db: behindProxy.db, env });
}, 60_000);

afterAll(async () => {
  await trustsNoProxy?.stop();
  await behindProxy?.stop();
});

const https = { 'x-forwarded-proto': 'https' };

describe('HTTPS outside local development', () => {
  it('refuses token-bearing routes over plain HTTP, in each audience format', async () => {
    const admin = await fetch(`${behindProxy.baseUrl}/admin/v1/tenants`, {
      headers: { authorization: `Bearer ${behindProxy.adminToken}` },
    });
    expect(admin.status).toBe(403);
    expect(admin.headers.get('content-type')).toContain('application/problem+json');
    expect(await admin.json()).toMatchObject({ type: 'urn:credservice:problem:https-required' });

    const scim = await fetch(`${behindProxy.baseUrl}/tenants/acme/scim/v2/Users`);
    expect(scim.status).toBe(403);
    expect(scim.headers.get('content-type')).toContain('application/scim+json');

    const token = await fetch(`${behindProxy.baseUrl}/oid4vci/v1/token`, { method: 'POST' });
    expect(token.status).toBe(403);
    expect(await token.json()).toMatchObject({ error: 'invalid_request' });
  });

  it("serves them through a trusted proxy's X-Forwarded-Proto, and with HSTS", async () => {
    const res = await fetch(`${behindProxy.baseUrl}/admin/v1/tenants`, {
      headers: { authorization: `Bearer ${behindProxy.adminToken}`, ...https },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });

  it('ignores X-Forwarded-Proto from anyone when no proxy is trusted', async () => {
    const res = await fetch(`${trustsNoProxy.baseUrl}/admin/v1/tenants`, {
      headers: { authorization: `Bearer ${trustsNoProxy.adminToken}`, ...https },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('serves public documents and probes over plain HTTP, without HSTS or upgrades', async () => {
    for (const path of ['/healthz', '/.well-known/jwt-vc-issuer', '/docs', '/openapi.json', '/oauth2/jwks']) {
      const res = await fetch(`${trustsNoProxy.baseUrl}${path}`);
      expect(res.status, path).toBeLessThan(400);
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
      expect(res.headers.get('content-security-policy') ?? '', path).not.toContain(
        'upgrade-insecure-requests',
      );
    }
  });
});

describe('local development', () => {
  it('serves everything over plain HTTP when PUBLIC_URL is on the loopback interface', async () => {
    const local = await startTestService({ redis: false, db: behindProxy.db });
    try {
      const res = await fetch(`${local.baseUrl}/admin/v1/tenants`, {
        headers: { authorization: `Bearer ${local.adminToken}` },
      });
      expect(res.status).toBe(200);
      const docs = await fetch(`${local.baseUrl}/docs`);
      expect(docs.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    } finally {
      await local.stop();
    }
  });
});
