import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** A group a directory provisioned; members live in scim_group_member, not in `resource`. */
export const ScimGroup = defineEntity({
  name: 'ScimGroup',
  tableName: 'scim_group',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string(),
    displayName: p.string(),
    externalId: p.string().nullable(),
    resource: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    version: p.integer(),
  },
});

export type ScimGroup = InferEntity<typeof ScimGroup>;

export const ScimGroupMember = defineEntity({
  name: 'ScimGroupMember',
  tableName: 'scim_group_member',
  properties: {
    groupId: p.uuid().primary(),
    userId: p.uuid().primary(),
    /** The member's display as the client gave it, if it gave one. */
    display: p.string().nullable(),
  },
});

export type ScimGroupMember = InferEntity<typeof ScimGroupMember>;
