import { randomUUID } from 'node:crypto';
import { isUuid } from '../persistence/uuid.js';
import { requiredString } from '../scim/resource-input.js';
import type { GroupSnapshot } from './read-group-for-change.js';
import type { ScimGroup } from './scim-group.entity.js';

type Json = Record<string, unknown>;

/** The members a resource names, with the display the client gave (`display`, or `displayName`). */
export function requestedMembers(resource: Json): Map<string, string | null> {
  const members = Array.isArray(resource.members) ? (resource.members as Json[]) : [];
  const display = (m: Json) =>
    typeof m.display === 'string' ? m.display : typeof m.displayName === 'string' ? m.displayName : null;
  return new Map(members.map((m) => [String(m.value ?? ''), display(m)]));
}

/** Who a group change touches, once the users it names are known to exist in the tenant. */
export interface MemberChanges {
  wanted: string[];
  added: string[];
  removed: string[];
  /** Named members that are no user of this tenant: left out, and named in the audit event. */
  ignored: string[];
  /** Users whose powers may change: added and removed, or every member when the name changed. */
  affected: string[];
}

/**
 * Who a group change touches: the members `requested` that are users of the tenant (`exists`), those
 * added and removed against the members `before`; every member is affected when the name changed
 * (powers are keyed by it, ignoring case). One rule for both ways a group change is written.
 */
export function memberChanges(
  requested: ReadonlyMap<string, string | null>,
  before: string[],
  names: { before: string | null; after: string | null },
  exists: (userId: string) => boolean,
): MemberChanges {
  const wanted = [...requested.keys()].filter((k) => isUuid(k) && exists(k));
  const ignored = [...requested.keys()].filter((k) => !wanted.includes(k));
  const added = wanted.filter((u) => !before.includes(u));
  const removed = before.filter((u) => !wanted.includes(u));
  const renamed =
    names.before !== null && names.after !== null && names.before.toLowerCase() !== names.after.toLowerCase();
  const affected = renamed ? [...new Set([...wanted, ...removed])] : [...added, ...removed];
  return { wanted, added, removed, ignored, affected };
}

export interface GroupChangePlan {
  group: { id: string; after: ScimGroup | null };
  /** Every user to read: the members named and the members before. */
  candidates: string[];
  membersOf(existing: ReadonlyMap<string, unknown>): MemberChanges;
  displayOf(userId: string): string | null;
}

/**
 * A group's new row and its membership change, from the group as read (undefined: created) and the
 * resource written (null: deleted). Members that are no user of this tenant are left out (Microsoft's
 * SCIM test collection adds such members and expects success; no other tenant's user can get in).
 */
export function planGroupMembers(
  tenantId: string,
  current: GroupSnapshot | undefined,
  resource: Json | null,
): GroupChangePlan {
  const before = current?.members.map((m) => m.id) ?? [];
  const requested = resource ? requestedMembers(resource) : new Map<string, string | null>();
  const now = new Date();
  let after: ScimGroup | null = null;
  if (resource) {
    const { members: _members, ...stored } = resource;
    after = {
      ...(current?.group ?? { id: randomUUID(), tenantId, createdAt: now, version: 0 }),
      resource: stored,
      displayName: requiredString(resource, 'displayName'),
      externalId: typeof resource.externalId === 'string' ? resource.externalId : null,
      updatedAt: now,
      version: (current?.group.version ?? 0) + 1,
    } as ScimGroup;
  }
  const id = current?.group.id ?? (after as ScimGroup).id;
  const names = { before: current?.group.displayName ?? null, after: after?.displayName ?? null };
  return {
    group: { id, after },
    candidates: [...new Set([...[...requested.keys()].filter((k) => isUuid(k)), ...before])],
    membersOf: (existing) => memberChanges(requested, before, names, (k) => existing.has(k)),
    displayOf: (userId) => requested.get(userId) ?? null,
  };
}
