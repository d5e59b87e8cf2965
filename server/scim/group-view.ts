import type { GroupMember } from '../directory/group-membership.js';
import { etagOf } from '../directory/if-match.js';
import type { ScimGroup } from '../directory/scim-group.entity.js';

/** The SCIM representation of a stored group (RFC 7643 section 4.2), members included. */
export function groupView(group: ScimGroup, baseUrl: string, members: GroupMember[]) {
  const { schemas: _stored, ...attributes } = group.resource as { schemas?: unknown } & Record<
    string,
    unknown
  >;
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    id: group.id,
    ...attributes,
    displayName: group.displayName,
    members: members.map((m) => ({
      value: m.id,
      display: m.display,
      $ref: `${baseUrl}/Users/${m.id}`,
      type: 'User',
    })),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${baseUrl}/Groups/${group.id}`,
      version: etagOf(group.version),
    },
  };
}
