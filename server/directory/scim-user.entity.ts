import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A user a directory provisioned through SCIM. The full resource is kept as JSON; the attributes
 * filters and sorting use most are also columns, so SQL can index them.
 */
export const ScimUser = defineEntity({
  name: 'ScimUser',
  tableName: 'scim_user',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string(),
    userName: p.string(),
    externalId: p.string().nullable(),
    active: p.boolean(),
    displayName: p.string().nullable(),
    givenName: p.string().nullable(),
    familyName: p.string().nullable(),
    resource: p.json<Record<string, unknown>>(),
    /** The issuance of the user's current credential (or pending offer). */
    issuanceId: p.string().nullable(),
    /** SHA-256 of the credential payload last issued, to tell whether a change needs a new credential. */
    credentialPayloadHash: p.string().nullable(),
    /** Why the user's credential is missing or could not be renewed, as the last sync found; null when current. */
    credentialReason: p.string().nullable(),
    /** Direct delivery: the signed credential last issued, until revoked, for the integrator to fetch. */
    directCredential: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    version: p.integer(),
  },
});

export type ScimUser = InferEntity<typeof ScimUser>;
