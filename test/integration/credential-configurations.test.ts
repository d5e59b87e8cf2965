import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

let t: TestService;
let issuer: string;
beforeAll(async () => {
  t = await startTestService();
  issuer = t.service.context.config.issuerUrl;
});
afterAll(() => t.stop());

const badge = {
  payload_schema: {
    type: 'object',
    required: ['holder', 'level'],
    additionalProperties: false,
    properties: { holder: { type: 'string' }, level: { type: 'integer', minimum: 1 } },
  },
  selectively_disclosable: ['holder'],
  validity_seconds: 3600,
  display: [{ locale: 'en', name: 'Access badge' }],
  claims: [{ path: ['level'], display: [{ locale: 'en', label: 'Level' }] }],
};

describe('credential configurations', () => {
  it('publishes the built-in employee credential in issuer metadata and as SD-JWT VC type metadata', async () => {
    const metadata = (await (await fetch(`${t.baseUrl}/.well-known/openid-credential-issuer`)).json()) as {
      credential_issuer: string;
      credential_configurations_supported: Record<string, { vct: string; format: string }>;
    };
    expect(metadata.credential_issuer).toBe(issuer);
    const employee = metadata.credential_configurations_supported.LEARCredentialEmployee;
    expect(employee).toMatchObject({
      format: 'dc+sd-jwt',
      vct: `${issuer}/credential-types/LEARCredentialEmployee`,
    });
    const type = await (await fetch(employee?.vct ?? '')).json();
    expect(type).toMatchObject({
      vct: employee?.vct,
      display: [{ locale: 'en', name: 'Employee credential' }],
    });
    expect((await fetch(`${issuer}/credential-types/Unknown`)).status).toBe(404);
  });

  it('signs the issuer metadata when the wallet asks for application/jwt', async () => {
    const res = await fetch(`${t.baseUrl}/.well-known/openid-credential-issuer`, {
      headers: { accept: 'application/jwt' },
    });
    expect(res.headers.get('content-type')).toContain('application/jwt');
    const jwt = await res.text();
    expect(decodeProtectedHeader(jwt).typ).toBe('openidvci-issuer-metadata+jwt');
    const keys = (await (await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer`)).json()) as {
      jwks: { keys: never[] };
    };
    const { payload } = await compactVerify(jwt, createLocalJWKSet(keys.jwks));
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({
      sub: issuer,
      credential_issuer: issuer,
    });
  });

  it('registers an operator configuration, validates payloads against it, and limits tenants to some', async () => {
    const put = await t.admin.putCredentialConfiguration({
      params: { configurationId: 'AccessBadge' },
      body: badge,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: 'AccessBadge',
      vct: `${issuer}/credential-types/AccessBadge`,
      builtin: false,
    });
    const builtin = await t.admin.putCredentialConfiguration({
      params: { configurationId: 'LEARCredentialEmployee' },
      body: badge,
    });
    expect(builtin.status).toBe(409);
    const broken = await t.admin.putCredentialConfiguration({
      params: { configurationId: 'Broken' },
      body: { ...badge, payload_schema: { type: 'no-such-type' } },
    });
    expect(broken.status).toBe(400);

    const tenant = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
    if (tenant.status !== 201) throw new Error('no tenant');
    const integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: tenant.body.integrator_token });
    const bad = await integrator.createIssuance({
      body: { credential_configuration_id: 'AccessBadge', payload: { holder: 'x', level: 0 } },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      'payload.level',
    ]);
    const good = await integrator.createIssuance({
      body: { credential_configuration_id: 'AccessBadge', payload: { holder: 'x', level: 2 } },
    });
    expect(good.status).toBe(201);

    await t.admin.updateTenant({
      params: { id: tenant.body.id },
      body: { credential_configurations: ['LEARCredentialEmployee'] },
    });
    const limited = await integrator.createIssuance({
      body: { credential_configuration_id: 'AccessBadge', payload: { holder: 'x', level: 2 } },
    });
    expect(limited.status).toBe(400);
    expect(JSON.stringify(limited.body)).toContain('may not issue');
    const allowed = await integrator.createIssuance({
      body: { credential_configuration_id: 'LEARCredentialEmployee', payload: employeePayload() },
    });
    expect(allowed.status).toBe(201);
  });
});
