import { randomUUID } from 'node:crypto';
import { readAttribute } from './scim-attribute-value.js';
import type { ScimUser } from './scim-user.entity.js';

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** A user as POST /Users makes it: version 1, no credential yet, its columns read off `resource`. */
export function newScimUser(tenantId: string, resource: Json): ScimUser {
  const now = new Date();
  const user = {
    id: randomUUID(),
    tenantId,
    issuanceId: null,
    credentialPayloadHash: null,
    credentialReason: null,
    directCredential: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  } as unknown as ScimUser;
  setUserColumns(user, resource);
  return user;
}

/** Copies the filterable attributes of a stored resource into their columns. */
export function setUserColumns(
  user: Pick<
    ScimUser,
    'userName' | 'externalId' | 'active' | 'displayName' | 'givenName' | 'familyName' | 'resource'
  >,
  resource: Json,
) {
  user.resource = resource;
  user.userName = String(resource.userName);
  user.externalId = text(resource.externalId);
  user.active = resource.active !== false;
  user.displayName = text(resource.displayName);
  user.givenName = text(readAttribute(resource, 'name.givenName'));
  user.familyName = text(readAttribute(resource, 'name.familyName'));
}

/** The display names of the groups a user belongs to, for group-derived powers. */
export async function groupNamesOf(
  execute: (sql: string, params: unknown[]) => Promise<{ display_name: string }[]>,
  userId: string,
): Promise<string[]> {
  const rows = await execute(
    'select g.display_name from scim_group g join scim_group_member m on m.group_id = g.id where m.user_id = ?',
    [userId],
  );
  return rows.map((r) => r.display_name);
}
