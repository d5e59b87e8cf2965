import { createPublicKey, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OidcClientCreateRequest } from '../../contract/oidc/oidc-client.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { notFound, validationError } from '../domain-errors.js';
import { getTenant } from '../tenants/tenant-service.js';
import { hashSecret } from '../tenants/token-secret.js';
import { OidcClient } from './oidc-client.entity.js';

const random = (bytes: number) => randomBytes(bytes).toString('base64url');

/** Each JWK must be a public key Node can use; a typo found at registration beats one at login. */
function checkJwks(jwks: { keys: Record<string, unknown>[] }) {
  jwks.keys.forEach((jwk, i) => {
    try {
      createPublicKey({ key: jwk as never, format: 'jwk' });
    } catch {
      throw validationError([{ field: `jwks.keys.${i}`, message: 'not a usable public JWK' }]);
    }
  });
}

/**
 * Registers a relying party of a tenant. Its credential configuration must exist and be one the
 * tenant may use. A client_secret is made for the secret-based methods and returned only here.
 */
export async function registerOidcClient(
  em: EntityManager,
  tenantId: string,
  req: OidcClientCreateRequest,
  actor: string,
) {
  const tenant = await getTenant(em, tenantId);
  const configurationId = req.credential_configuration_id;
  if (!(await findConfiguration(em, configurationId)))
    throw validationError([
      { field: 'credential_configuration_id', message: 'unknown credential configuration' },
    ]);
  if (tenant.credentialConfigurations && !tenant.credentialConfigurations.includes(configurationId))
    throw validationError([{ field: 'credential_configuration_id', message: 'not allowed for this tenant' }]);
  if (req.jwks) checkJwks(req.jwks);
  const secret = req.token_endpoint_auth_method === 'private_key_jwt' ? undefined : random(32);
  const client = await em.transactional(async (tx) => {
    const row = tx.create(OidcClient, {
      id: `rp_${random(18)}`,
      tenantId,
      name: req.client_name ?? null,
      redirectUris: req.redirect_uris,
      tokenEndpointAuthMethod: req.token_endpoint_auth_method,
      secretHash: secret ? hashSecret(secret) : null,
      jwks: req.jwks ?? null,
      credentialConfigurationId: configurationId,
      claimsMapping: req.claims_mapping,
      createdAt: new Date(),
    });
    await tx.flush();
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'oidc.client_registered',
      subject: row.id,
      details: {
        redirect_uris: row.redirectUris,
        token_endpoint_auth_method: row.tokenEndpointAuthMethod,
        credential_configuration_id: configurationId,
        claims: Object.keys(row.claimsMapping),
      },
    });
    return row;
  });
  return { client, secret };
}

export async function listOidcClients(em: EntityManager, tenantId: string) {
  await getTenant(em, tenantId);
  return em.find(OidcClient, { tenantId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Deleting a client cascades to its pending logins, unredeemed codes and access tokens. */
export async function deleteOidcClient(em: EntityManager, tenantId: string, clientId: string, actor: string) {
  await getTenant(em, tenantId);
  await em.transactional(async (tx) => {
    const deleted = await tx.nativeDelete(OidcClient, { id: clientId, tenantId });
    if (!deleted) throw notFound(`OIDC client ${clientId}`);
    await appendAuditEvent(tx, { tenantId, actor, action: 'oidc.client_removed', subject: clientId });
  });
}

export const oidcClientView = (c: OidcClient) => ({
  client_id: c.id,
  tenant_id: c.tenantId,
  client_name: c.name ?? null,
  redirect_uris: c.redirectUris,
  token_endpoint_auth_method: c.tokenEndpointAuthMethod,
  ...(c.jwks ? { jwks: c.jwks } : {}),
  credential_configuration_id: c.credentialConfigurationId,
  claims_mapping: c.claimsMapping,
  created_at: c.createdAt.toISOString(),
});

/** A client just registered: its view, with the secret this one answer shows (never again). */
export const registeredClientView = (r: { client: OidcClient; secret?: string | undefined }) => ({
  ...oidcClientView(r.client),
  ...(r.secret ? { client_secret: r.secret } : {}),
});
