import { z } from 'zod';
import {
  OfferLifetime,
  PreAuthorizedCodeLifetime,
  RefreshTokenLifetime,
} from '../issuance/offer-lifetimes.js';
import { OfferUriScheme } from '../issuance/offer-uri-scheme.js';
import { PresentationProfile, PresentationUriScheme } from '../verification/authorization-request.js';
import { MailSender, TenantBranding } from './tenant-branding.js';

export const TenantId = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'lower-case letters, digits and inner hyphens, 1 to 64')
  .describe('Tenant identifier; appears in the SCIM URL');

const EncryptionRequired = z
  .boolean()
  .describe(
    'true: wallets must encrypt their OpenID4VCI credential requests for the tenant’s issuances and ask for encrypted responses (invalid_encryption_parameters otherwise); false: they choose, unless CREDENTIAL_ENCRYPTION_REQUIRED',
  );

export const DeliveryMode = z.enum(['email', 'direct']);

export const Mandator = z.object({
  organizationIdentifier: z.string().min(1).max(200),
  organization: z.string().min(1).max(200),
  commonName: z.string().min(1).max(200),
  email: z.string().email(),
  country: z.string().regex(/^[A-Z]{2}$/, 'two upper-case letters (ISO 3166-1 alpha-2)'),
});

export const TenantCreateRequest = z
  .object({
    id: TenantId,
    name: z.string().min(1).max(200),
    delivery: DeliveryMode,
    mandator: Mandator.optional(),
  })
  .strict();

export const TenantUpdateRequest = z
  .object({
    name: z.string().min(1).max(200).optional(),
    delivery: DeliveryMode.optional(),
    mandator: Mandator.nullable().optional(),
    credential_configurations: z
      .array(z.string())
      .nullable()
      .optional()
      .describe('Configurations the tenant may issue; null: all'),
    offer_expires_in: OfferLifetime.nullable()
      .optional()
      .describe('Seconds the tenant’s offers stay open unless a request says otherwise; null: 24 hours'),
    pre_authorized_code_expires_in: PreAuthorizedCodeLifetime.nullable()
      .optional()
      .describe('Seconds a pre-authorized code is good once a wallet fetched the offer; null: 600'),
    branding: TenantBranding.nullable().optional().describe('Replaces the whole branding; null: none'),
    mail_from: MailSender.nullable().optional(),
    presentation_uri_scheme: PresentationUriScheme.nullable()
      .optional()
      .describe('Scheme of the tenant’s presentation request links unless a request says; null: openid4vp'),
    presentation_profile: PresentationProfile.nullable()
      .optional()
      .describe(
        'haip-1.0: the tenant’s presentation sessions follow HAIP 1.0 (direct_post.jwt only, KB-JWT always, issuers trusted only by x5c chains to the tenant’s trust anchors, ES256, haip-vp links by default); null: no profile',
      ),
    offer_uri_scheme: OfferUriScheme.nullable()
      .optional()
      .describe(
        'Scheme of the tenant’s credential offer links (HAIP 1.0 haip-vci) unless a request says; null: openid-credential-offer',
      ),
    refresh_token_expires_in: RefreshTokenLifetime.nullable()
      .optional()
      .describe(
        'Seconds after the token grant a wallet may refresh its credential with refresh tokens (3600 to 31536000); null: no refresh tokens',
      ),
    encryption_required: EncryptionRequired.optional(),
  })
  .strict()
  // An update that names nothing to change is a client's mistake (or a body that did not parse as
  // meant); it is refused rather than recorded as a change.
  .refine((update) => Object.keys(update).length > 0, { message: 'name at least one field to change' });

export const Tenant = z.object({
  id: TenantId,
  name: z.string(),
  delivery: DeliveryMode,
  mandator: Mandator.nullable(),
  credential_configurations: z.array(z.string()).nullable(),
  offer_expires_in: z.number().int().nullable().describe('Seconds offers stay open; null: 24 hours'),
  pre_authorized_code_expires_in: z
    .number()
    .int()
    .nullable()
    .describe('Seconds a fetched pre-authorized code is good; null: 600'),
  branding: TenantBranding.nullable(),
  mail_from: z.string().nullable().describe("Sender of the tenant's mail; null: the service's MAIL_FROM"),
  presentation_uri_scheme: PresentationUriScheme.nullable().describe(
    'Scheme of presentation request links (HAIP 1.0 haip-vp or openid4vp); null: openid4vp, or haip-vp under the haip-1.0 profile',
  ),
  presentation_profile: PresentationProfile.nullable()
    .optional()
    .describe('Verifier profile of the tenant’s presentation sessions; null: none'),
  offer_uri_scheme: OfferUriScheme.nullable().describe(
    'Scheme of credential offer links (HAIP 1.0 haip-vci or openid-credential-offer); null: openid-credential-offer',
  ),
  refresh_token_expires_in: z
    .number()
    .int()
    .nullable()
    .describe('Seconds after the token grant refresh tokens are good; null: no refresh tokens'),
  encryption_required: EncryptionRequired,
  scim_url: z.string().url(),
  created_at: z.string().datetime(),
  updated_at: z.string().datetime(),
});

export const TenantDetail = Tenant.extend({
  warnings: z
    .array(z.string())
    .describe(
      'What keeps the tenant from working as set up, e.g. why its SCIM users get no credential, why no presentation session can start under its profile, or which trusted issuer’s keys could not be resolved',
    ),
});

export const TenantCreated = z.object({
  id: TenantId,
  integrator_token: z.string().describe('Shown once; store it now'),
  scim_token: z.string().describe('Shown once; store it now'),
  scim_url: z.string().url(),
});

export const TenantList = z.object({ items: z.array(Tenant), total: z.number().int() });

export const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
