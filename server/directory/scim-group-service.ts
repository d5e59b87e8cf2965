import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { IssuanceServices } from '../issuance/create-issuance.js';
import { isUuid } from '../persistence/uuid.js';
import { applyPatch } from '../scim/patch/apply-patch.js';
import { requiredString, resourceFromBody } from '../scim/resource-input.js';
import { ScimError } from '../scim/scim-error.js';
import { changeGroup } from './change-group.js';
import { groupNamesOfUsers, membersOfGroups } from './group-membership.js';
import { checkIfMatch } from './if-match.js';
import { memberChanges, requestedMembers } from './plan-group-members.js';
import { resyncGroupMembers } from './resync-group-members.js';
import type { ScimCall } from './scim-call.js';
import { ScimGroup } from './scim-group.entity.js';
import { ScimUser } from './scim-user.entity.js';

type Json = Record<string, unknown>;
const notFound = (id: string) => new ScimError(404, `Group ${id} not found`);
const nameTaken = () =>
  new ScimError(409, 'displayName is already taken by another group of this tenant', 'uniqueness');

/** Stores the group row; a displayName another group of the tenant has (ignoring case) is 409. */
async function flushGroup(tx: EntityManager): Promise<void> {
  try {
    await tx.flush();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw nameTaken();
    throw e;
  }
}

/**
 * Writes a group and its membership, then renews the credential of every user whose powers may have
 * changed (members added or removed, or all members when the name, which powers are keyed by,
 * changed), and records one audit event, all in the caller's transaction.
 */
async function commitGroup(
  tx: EntityManager,
  s: IssuanceServices,
  group: ScimGroup,
  resource: Json,
  before: { name: string | null; members: string[] },
  action: string,
  actor: string,
) {
  // Members that are no user of this tenant are left out (and named in the audit event): Microsoft's
  // SCIM test collection adds such members and expects success; no other tenant's user can get in.
  const requested = requestedMembers(resource);
  const candidates = [...requested.keys()].filter((id) => isUuid(id));
  const known = candidates.length
    ? await tx.find(ScimUser, { id: { $in: candidates }, tenantId: group.tenantId }, { fields: ['id'] })
    : [];
  const knownIds = new Set(known.map((u) => u.id));
  const name = requiredString(resource, 'displayName');
  const { added, removed, ignored, affected } = memberChanges(
    requested,
    before.members,
    { before: before.name, after: name },
    (id) => knownIds.has(id),
  );
  const groupsBefore = await groupNamesOfUsers(tx, affected);

  const { members: _members, ...stored } = resource;
  group.resource = stored;
  group.displayName = name;
  group.externalId = typeof resource.externalId === 'string' ? resource.externalId : null;
  await flushGroup(tx);
  if (removed.length) {
    await tx.execute(
      `delete from scim_group_member where group_id = ? and user_id in (${removed.map(() => '?').join(',')})`,
      [group.id, ...removed],
    );
  }
  for (const userId of added) {
    await tx.execute(
      'insert into scim_group_member (group_id, user_id, display) values (?, ?, ?) on conflict do nothing',
      [group.id, userId, requested.get(userId) ?? null],
    );
  }
  const { renewed, failed } = await resyncGroupMembers(tx, s, group, affected, groupsBefore, actor);
  await appendAuditEvent(tx, {
    tenantId: group.tenantId,
    actor,
    action,
    subject: group.id,
    details: {
      added,
      removed,
      renewed,
      ...(failed.length ? { failed } : {}),
      ...(ignored.length ? { ignored: ignored.slice(0, 50) } : {}),
    },
  });
}

async function loadForWrite(tx: EntityManager, tenantId: string, id: string, ifMatch?: string) {
  if (!isUuid(id)) throw notFound(id);
  const group = await tx.findOne(ScimGroup, { id, tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!group) throw notFound(id);
  checkIfMatch(ifMatch, group.version);
  const members = (await membersOfGroups(tx, [group.id])).get(group.id) ?? [];
  return { group, members: members.map((m) => m.id), memberRefs: members };
}

export async function createScimGroup(c: ScimCall, body: unknown) {
  const { em, services: s, tenantId, actor } = c;
  const resource = resourceFromBody(body, 'Group');
  requiredString(resource, 'displayName');
  const planned = await changeGroup(c, undefined, undefined, () => ({
    resource,
    changed: true,
    action: 'scim.group.created',
  }));
  if (planned) return planned;
  return em.transactional(async (tx) => {
    const now = new Date();
    const group = tx.create(ScimGroup, {
      id: randomUUID(),
      tenantId,
      displayName: '',
      externalId: null,
      resource: {},
      createdAt: now,
      updatedAt: now,
      version: 1,
    });
    await commitGroup(tx, s, group, resource, { name: null, members: [] }, 'scim.group.created', actor);
    return group;
  });
}

export async function replaceScimGroup(c: ScimCall, id: string, body: unknown, ifMatch?: string) {
  const { em, services: s, tenantId, actor } = c;
  const resource = resourceFromBody(body, 'Group');
  requiredString(resource, 'displayName');
  const planned = await changeGroup(c, id, ifMatch, () => ({
    resource,
    changed: true,
    action: 'scim.group.replaced',
  }));
  if (planned) return planned;
  return em.transactional(async (tx) => {
    const { group, members } = await loadForWrite(tx, tenantId, id, ifMatch);
    const before = { name: group.displayName, members };
    group.updatedAt = new Date();
    group.version += 1;
    await commitGroup(tx, s, group, resource, before, 'scim.group.replaced', actor);
    return group;
  });
}

export async function patchScimGroup(c: ScimCall, id: string, body: unknown, ifMatch?: string) {
  const { em, services: s, tenantId, actor } = c;
  const planned = await changeGroup(c, id, ifMatch, (read) => {
    const members = read?.members ?? [];
    const current = {
      ...read?.group.resource,
      members: members.map((m) => ({ value: m.id, display: m.display })),
    };
    const { resource, changedPaths } = applyPatch(current, body, 'Group', { id });
    return { resource, changed: changedPaths.length > 0, action: 'scim.group.updated' };
  });
  if (planned) return planned;
  return em.transactional(async (tx) => {
    const { group, members, memberRefs } = await loadForWrite(tx, tenantId, id, ifMatch);
    const current = {
      ...group.resource,
      members: memberRefs.map((m) => ({ value: m.id, display: m.display })),
    };
    const { resource, changedPaths } = applyPatch(current, body, 'Group', { id });
    if (!changedPaths.length) return group;
    group.updatedAt = new Date();
    group.version += 1;
    await commitGroup(
      tx,
      s,
      group,
      resource,
      { name: group.displayName, members },
      'scim.group.updated',
      actor,
    );
    return group;
  });
}

export async function deleteScimGroup(c: ScimCall, id: string, ifMatch?: string) {
  const { em, services: s, tenantId, actor } = c;
  const planned = await changeGroup(c, id, ifMatch, () => ({
    resource: null,
    changed: true,
    action: 'scim.group.deleted',
  }));
  if (planned) return;
  await em.transactional(async (tx) => {
    const { group, members } = await loadForWrite(tx, tenantId, id, ifMatch);
    const groupsBefore = await groupNamesOfUsers(tx, members);
    tx.remove(group);
    await tx.flush();
    const { renewed, failed } = await resyncGroupMembers(tx, s, group, members, groupsBefore, actor);
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'scim.group.deleted',
      subject: id,
      details: { removed: members, renewed, ...(failed.length ? { failed } : {}) },
    });
  });
}

export async function getScimGroup(em: EntityManager, tenantId: string, id: string) {
  if (!isUuid(id)) throw notFound(id);
  const group = await em.findOne(ScimGroup, { id, tenantId });
  if (!group) throw notFound(id);
  return group;
}
