import { readFileSync } from 'node:fs';
import { employeePayload } from '../support/fixtures.js';
import type { World } from './hostile-world.js';

/** An operation of openapi/openapi.json, as much of it as the generator needs. */
export interface Operation {
  /** `PATCH /admin/v1/tenants/{id}`, as the contract oracle keys it. */
  key: string;
  method: string;
  path: string;
  params: string[];
  query: string[];
  bodyType?: string;
  properties: string[];
  required: string[];
  /** Who must call it: the operator, a tenant's integrator, a wallet with an OID4VCI access token. */
  security?: 'admin' | 'integrator' | 'access';
}

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  security?: Record<string, unknown>[];
  requestBody?: {
    content: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }>;
  };
}

// Wallet routes that take a bearer access token from the token endpoint (OpenAPI leaves them open).
const ACCESS_TOKEN_ROUTES = new Set([
  '/oid4vci/v1/credential',
  '/oid4vci/v1/notification',
  '/oid4vci/v1/deferred_credential',
]);

export function operations(): Operation[] {
  const doc = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => {
      const [bodyType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const scheme = Object.keys(op.security?.[0] ?? {})[0];
      const security =
        scheme === 'adminToken'
          ? 'admin'
          : scheme === 'integratorToken'
            ? 'integrator'
            : ACCESS_TOKEN_ROUTES.has(path)
              ? 'access'
              : undefined;
      return {
        key: `${m.toUpperCase()} ${path}`,
        method: m.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        ...(bodyType ? { bodyType } : {}),
        properties: Object.keys(media?.schema?.properties ?? {}),
        required: media?.schema?.required ?? [],
        ...(security ? { security } : {}),
      } satisfies Operation;
    }),
  );
}

/** The path with its parameters filled in. */
export const fill = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? 'missing');

/** Real ids the caller of the operation owns: with them and a valid body, the request would succeed. */
export function ownParams(op: Operation, w: World): Record<string, string> {
  const byPath: [RegExp, Record<string, string>][] = [
    [/^\/api\/v1\/issuances\//, { id: w.a.issuanceId }],
    [/^\/api\/v1\/credentials\//, { id: w.a.credentialId }],
    [/^\/api\/v1\/authorization-request\//, { id: w.a.pendingSessionId }],
    [/^\/oid4vp\/auth-request\//, { id: w.a.pendingSessionId }],
    [/^\/credential-types\//, { id: 'LEARCredentialEmployee' }],
    [/^\/oid4vci\/v1\/credential-offer\//, { offerId: w.a.openOfferId }],
  ];
  const found = byPath.find(([re]) => re.test(op.path));
  if (found) return found[1];
  return {
    id: w.a.id,
    tokenId: w.a.tokenId,
    clientId: w.a.secretClient.id,
    // Built in: the service refuses to replace it, so even a valid PUT changes nothing.
    configurationId: 'LEARCredentialEmployee',
    purpose: 'issuer',
  };
}

/** Real ids of the other tenant, or pairs that do not belong together: all must be 404. */
export function foreignParams(op: Operation, w: World): Record<string, string>[] {
  if (op.path.startsWith('/api/v1/issuances/')) return [{ id: w.b.issuanceId }];
  if (op.path.startsWith('/api/v1/credentials/')) return [{ id: w.b.credentialId }];
  if (op.path.startsWith('/api/v1/authorization-request/')) return [{ id: w.b.pendingSessionId }];
  // The integrator API takes the tenant from the token (tenant a's): another tenant's ids are b's.
  if (op.path.startsWith('/api/v1/')) {
    if (op.params.includes('tokenId')) return [{ tokenId: w.b.tokenId }];
    if (op.params.includes('clientId')) return [{ clientId: w.b.secretClient.id }];
  }
  if (op.params.includes('tokenId'))
    return [
      { id: w.a.id, tokenId: w.b.tokenId },
      { id: w.b.id, tokenId: w.a.tokenId },
    ];
  if (op.params.includes('clientId')) return [{ id: w.b.id, clientId: w.a.secretClient.id }];
  return [];
}

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** A valid body of each operation that takes one (valid in form; the ids in it lead nowhere real). */
export const BASE_BODIES: Record<string, Record<string, unknown>> = {
  'POST /admin/v1/tenants': { id: 'hostile-new', name: 'New', delivery: 'email' },
  'PATCH /admin/v1/tenants/{id}': { name: 'Renamed' },
  'POST /admin/v1/tenants/{id}/tokens': { kind: 'integrator' },
  'PUT /admin/v1/tenants/{id}/provisioning': {
    credential_configuration_id: null,
    mappings: [],
    default_powers: [],
    group_powers: {},
  },
  'POST /admin/v1/tenants/{id}/oidc-clients': {
    redirect_uris: ['https://rp.example/cb'],
    credential_configuration_id: 'LEARCredentialEmployee',
  },
  'PUT /admin/v1/credential-configurations/{configurationId}': {
    payload_schema: { type: 'object' },
    validity_seconds: 3600,
    display: [{ locale: 'en', name: 'Hostile' }],
  },
  'POST /admin/v1/tenants/{id}/trusted-issuers': { issuer: 'https://issuer.example' },
  'POST /admin/v1/tenants/{id}/trusted-issuers/remove': { issuer: 'https://issuer.example' },
  'POST /api/v1/issuances': {
    credential_configuration_id: 'LEARCredentialEmployee',
    payload: employeePayload(),
    delivery: 'direct',
  },
  'POST /api/v1/authorization-request': { credential_configuration_id: 'LEARCredentialEmployee' },
  'POST /oid4vci/v1/token': {
    grant_type: PRE_AUTHORIZED,
    'pre-authorized_code': 'hostile-code',
    tx_code: '123456',
  },
  'POST /oid4vci/v1/credential': {
    credential_configuration_id: 'LEARCredentialEmployee',
    proofs: { jwt: ['a.b.c'] },
  },
  'POST /oid4vci/v1/notification': { notification_id: 'hostile', event: 'credential_accepted' },
  'POST /oid4vci/v1/deferred_credential': { transaction_id: 'hostile-transaction' },
  'POST /oid4vp/auth-response': { state: 'hostile-state', vp_token: '{}' },
};
