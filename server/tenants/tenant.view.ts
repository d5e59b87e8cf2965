import type { ApiToken } from './api-token.entity.js';
import type { Tenant } from './tenant.entity.js';

export const scimUrlOf = (publicUrl: string, tenantId: string) => `${publicUrl}/tenants/${tenantId}/scim/v2`;

export const tenantView = (t: Tenant, publicUrl: string) => ({
  id: t.id,
  name: t.name,
  delivery: t.delivery,
  mandator: t.mandator ?? null,
  credential_configurations: t.credentialConfigurations ?? null,
  branding: t.branding ?? null,
  mail_from: t.mailFrom ?? null,
  offer_expires_in: t.offerTtlSeconds ?? null,
  pre_authorized_code_expires_in: t.preAuthorizedCodeTtlSeconds ?? null,
  presentation_uri_scheme: t.presentationUriScheme ?? null,
  presentation_profile: t.presentationProfile ?? null,
  offer_uri_scheme: t.offerUriScheme ?? null,
  refresh_token_expires_in: t.refreshTokenTtlSeconds ?? null,
  encryption_required: t.encryptionRequired ?? false,
  scim_url: scimUrlOf(publicUrl, t.id),
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

export const tokenView = (t: ApiToken) => ({
  id: t.id,
  kind: t.kind,
  scope: t.scope,
  created_at: t.createdAt.toISOString(),
  expires_at: t.expiresAt?.toISOString() ?? null,
  revoked_at: t.revokedAt?.toISOString() ?? null,
});
