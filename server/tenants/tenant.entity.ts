import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { z } from 'zod';
import type { Mandator as MandatorSchema } from '../../contract/admin/tenant.js';
import type { TenantBranding } from '../../contract/admin/tenant-branding.js';
import { OFFER_URI_SCHEMES } from '../../contract/issuance/offer-uri-scheme.js';

export type Mandator = z.infer<typeof MandatorSchema>;
export type { TenantBranding };

export const Tenant = defineEntity({
  name: 'Tenant',
  tableName: 'tenant',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    delivery: p.enum(['email', 'direct'] as const),
    mandator: p.json<Mandator>().nullable(),
    /** Configurations the tenant may issue; null means all. */
    credentialConfigurations: p.json<string[]>().nullable(),
    /** Logo and colour of the tenant's offer and login pages; null: the service's plain look. */
    branding: p.json<TenantBranding>().nullable(),
    /** From of the tenant's mail; null: MAIL_FROM. */
    mailFrom: p.string().nullable(),
    /** Seconds the tenant's offers stay open unless a request says; null: OFFER_TTL_SECONDS. */
    offerTtlSeconds: p.integer().nullable(),
    /** Seconds a fetched pre-authorized code is good; null: DEFAULT_PRE_AUTHORIZED_CODE_SECONDS. */
    preAuthorizedCodeTtlSeconds: p.integer().nullable(),
    /** Scheme of the tenant's presentation request links (HAIP 1.0 `haip-vp`); null: `openid4vp`. */
    presentationUriScheme: p.enum(['openid4vp', 'haip-vp'] as const).nullable(),
    /** Verifier profile of the tenant's presentation sessions (HAIP 1.0); null: none. */
    presentationProfile: p.enum(['haip-1.0'] as const).nullable(),
    /** Scheme of the tenant's offer links (HAIP 1.0 `haip-vci`); null: `openid-credential-offer`. */
    offerUriScheme: p.enum(OFFER_URI_SCHEMES).nullable(),
    /**
     * Seconds after the token grant a wallet may refresh its credential with a refresh token
     * (HAIP 1.0 section 4.4, OID4VCI 1.0 section 13.5); null: no refresh tokens.
     */
    refreshTokenTtlSeconds: p.integer().nullable(),
    /**
     * Credential requests for the tenant's issuances must be encrypted and ask for encrypted
     * responses (OID4VCI 1.0 section 10), as if CREDENTIAL_ENCRYPTION_REQUIRED were set for it.
     */
    encryptionRequired: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type Tenant = InferEntity<typeof Tenant>;
