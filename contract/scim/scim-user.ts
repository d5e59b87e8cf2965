import { z } from 'zod';
import { ScimMeta } from './scim-meta.js';

export const SCIM_USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_ENTERPRISE_USER_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
/** The service's read-only extension of User: where the user's verifiable credential stands. */
export const SCIM_CREDENTIAL_EXTENSION_URN =
  'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

/** RFC 7643 section 2.4: the value / display / type / primary shape of multi-valued attributes. */
const multiValued = z.array(
  z
    .object({
      value: z.string().optional(),
      display: z.string().optional(),
      type: z.string().optional(),
      primary: z.boolean().optional(),
    })
    .passthrough(),
);

const ScimName = z.object({
  formatted: z.string().optional(),
  familyName: z.string().optional(),
  givenName: z.string().optional(),
  middleName: z.string().optional(),
  honorificPrefix: z.string().optional(),
  honorificSuffix: z.string().optional(),
});

const ScimAddress = z
  .object({
    formatted: z.string().optional(),
    streetAddress: z.string().optional(),
    locality: z.string().optional(),
    region: z.string().optional(),
    postalCode: z.string().optional(),
    country: z.string().optional(),
    type: z.string().optional().describe('work, home or other'),
    primary: z.boolean().optional(),
  })
  .passthrough();

/** RFC 7643 section 4.3. */
export const ScimEnterpriseUser = z.object({
  employeeNumber: z.string().optional(),
  costCenter: z.string().optional(),
  organization: z.string().optional(),
  division: z.string().optional(),
  department: z.string().optional(),
  manager: z
    .object({
      value: z.string().optional().describe('id of the manager'),
      $ref: z.string().optional(),
      displayName: z.string().optional().describe('Read-only'),
    })
    .optional(),
});

/** The writable attributes of a User (RFC 7643 section 4.1); `password` is not supported. */
const userAttributes = {
  externalId: z.string().optional().describe('The directory’s own identifier of the user'),
  name: ScimName.optional(),
  displayName: z.string().optional(),
  nickName: z.string().optional(),
  profileUrl: z.string().optional(),
  title: z.string().optional(),
  userType: z.string().optional(),
  preferredLanguage: z.string().optional(),
  locale: z.string().optional(),
  timezone: z.string().optional(),
  emails: multiValued.optional().describe('type: work, home or other'),
  phoneNumbers: multiValued.optional(),
  ims: multiValued.optional(),
  photos: multiValued.optional(),
  addresses: z.array(ScimAddress).optional(),
  entitlements: multiValued.optional(),
  roles: multiValued.optional(),
  x509Certificates: multiValued.optional(),
  [SCIM_ENTERPRISE_USER_URN]: ScimEnterpriseUser.optional(),
};

/**
 * The body of POST /Users and PUT /Users/{id}. Read-only and unknown attributes are ignored (RFC 7644
 * sections 3.3 and 3.5.1); attribute names match in any case. Deactivating (`active: false`) or
 * deleting a user revokes its credential.
 */
export const ScimUserInput = z
  .object({
    schemas: z.array(z.string()).optional().describe(`${SCIM_USER_URN}, and the extensions used`),
    userName: z.string().min(1).describe('Unique within the tenant'),
    active: z.boolean().optional().describe('Default true; false revokes the user’s credential'),
    ...userAttributes,
  })
  .passthrough();

/** The credential extension: read-only, kept up to date by the service. */
export const ScimCredentialState = z.object({
  status: z
    .enum(['none', 'offered', 'awaiting_approval', 'valid', 'suspended', 'revoked'])
    .describe('awaiting_approval: the wallet asked and the issuance waits for approval (deferred issuance)'),
  issuanceId: z.string().optional(),
  credentialIds: z.array(z.string()),
  reason: z.string().optional().describe('Why the user holds no current credential'),
  credential: z
    .string()
    .optional()
    .describe(
      'Direct delivery: the signed credential, in the answer of the write that issued it or when asked for ' +
        `by name (attributes=${SCIM_CREDENTIAL_EXTENSION_URN}:credential)`,
    ),
});

/**
 * A User as the service returns it (RFC 7643 section 4.1). `attributes` and `excludedAttributes`
 * narrow it, so only `schemas` and `id` are always present.
 */
export const ScimUser = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    userName: z.string().optional(),
    active: z.boolean().optional(),
    ...userAttributes,
    groups: z
      .array(
        z.object({
          value: z.string(),
          display: z.string().optional(),
          $ref: z.string().optional(),
          type: z.enum(['direct', 'indirect']).optional(),
        }),
      )
      .optional()
      .describe('Read-only: the groups the user is a member of'),
    [SCIM_CREDENTIAL_EXTENSION_URN]: ScimCredentialState.optional(),
    meta: ScimMeta.optional(),
  })
  .passthrough();

export type ScimUser = z.infer<typeof ScimUser>;
