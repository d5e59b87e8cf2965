import { LockMode } from '@mikro-orm/core';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { IssuanceServices } from '../issuance/create-issuance.js';
import { isUuid } from '../persistence/uuid.js';
import { applyPatch } from '../scim/patch/apply-patch.js';
import { requiredString, resourceFromBody } from '../scim/resource-input.js';
import { ScimError } from '../scim/scim-error.js';
import { getTenant } from '../tenants/tenant-service.js';
import { changeUser } from './change-user.js';
import type { GroupRef } from './group-membership.js';
import { checkIfMatch } from './if-match.js';
import { provisionNewUser } from './provision-new-user.js';
import type { ScimCall } from './scim-call.js';
import { ScimUser } from './scim-user.entity.js';
import { type SyncOutcome, type SyncTrigger, syncUserCredential } from './sync-user-credential.js';
import { userChangeAudit } from './user-change-audit.js';
import { groupNamesOf, newScimUser, setUserColumns } from './user-columns.js';
import type { CredentialState } from './user-credential-state.js';

export interface UserChange {
  user: ScimUser;
  sync: SyncOutcome;
  /** The credential state, when the change knows it without reading it back. */
  state?: CredentialState;
  /** The user's groups, when the change read them. */
  groups?: GroupRef[];
}

const notFound = (id: string) => new ScimError(404, `User ${id} not found`);
const taken = () => new ScimError(409, 'userName is already taken in this tenant', 'uniqueness');

async function loadForWrite(tx: EntityManager, tenantId: string, id: string, ifMatch?: string) {
  if (!isUuid(id)) throw notFound(id);
  const user = await tx.findOne(ScimUser, { id, tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user) throw notFound(id);
  checkIfMatch(ifMatch, user.version);
  return user;
}

/**
 * Brings the user's credential in line, stores the user's new state and records the audit event, in
 * the caller's transaction. The user is written once, after the credential work, with its credential
 * fields; a unique userName clash then surfaces as 409 uniqueness and the rollback undoes the rest.
 */
async function commitUser(
  tx: EntityManager,
  services: IssuanceServices,
  user: ScimUser,
  trigger: SyncTrigger,
  action: string,
  actor: string,
): Promise<SyncOutcome> {
  const tenant = await getTenant(tx, user.tenantId);
  // A user created just now belongs to no group yet, and an inactive user's credential is revoked
  // whatever their groups: only an active user's later change reads memberships.
  const groups =
    trigger === 'provision' || !user.active
      ? []
      : await groupNamesOf((sql, params) => tx.execute(sql, params), user.id);
  const sync = await syncUserCredential(tx, services, tenant, user, groups, trigger, actor);
  try {
    await tx.flush();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw taken();
    throw e;
  }
  await appendAuditEvent(tx, userChangeAudit(user, sync, action, actor));
  return sync;
}

export async function createScimUser(c: ScimCall, body: unknown): Promise<UserChange> {
  const { em, services: s, tenantId, actor } = c;
  const resource = resourceFromBody(body, 'User');
  requiredString(resource, 'userName');
  if (c.sql && !em.isInTransaction()) return provisionNewUser(c, c.sql, resource);
  return em.transactional(async (tx) => {
    // A userName taken (case-insensitively) is refused by the unique index when the user is
    // written (commitUser): no read ahead of every creation.
    const user = tx.create(ScimUser, newScimUser(tenantId, resource));
    const sync = await commitUser(tx, s, user, 'provision', 'scim.user.created', actor);
    return { user, sync };
  });
}

/**
 * PUT (RFC 7644 section 3.5.1) replaces the user, except that an omitted `active` keeps its current
 * value. The RFC lets a provider either clear an omitted attribute or give it a default; clearing
 * `active` would make a deactivated user active again and issue a credential, so reactivation stays
 * an explicit `active: true`, as Okta sends it (its PUTs always carry `active`) and as Entra does
 * with PATCH. Every other omitted attribute is cleared.
 */
export async function replaceScimUser(
  c: ScimCall,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<UserChange> {
  const { em, services: s, tenantId, actor } = c;
  const resource = resourceFromBody(body, 'User');
  requiredString(resource, 'userName');
  const planned = await changeUser(c, id, ifMatch, (user) => {
    const wasActive = user.active;
    if (resource.active === undefined) resource.active = wasActive;
    const deactivated = wasActive && resource.active === false;
    return {
      resource,
      changed: true,
      action: deactivated ? 'scim.user.deactivated' : 'scim.user.replaced',
      trigger: 'replace',
    };
  });
  if (planned) return planned;
  return em.transactional(async (tx) => {
    const user = await loadForWrite(tx, tenantId, id, ifMatch);
    const wasActive = user.active;
    if (resource.active === undefined) resource.active = wasActive;
    setUserColumns(user, resource);
    user.updatedAt = new Date();
    user.version += 1;
    const action = wasActive && !user.active ? 'scim.user.deactivated' : 'scim.user.replaced';
    return { user, sync: await commitUser(tx, s, user, 'replace', action, actor) };
  });
}

export async function patchScimUser(
  c: ScimCall,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<UserChange> {
  const { em, services: s, tenantId, actor } = c;
  const planned = await changeUser(c, id, ifMatch, (user) => {
    const { resource, changedPaths } = applyPatch(user.resource, body, 'User', { id });
    requiredString(resource, 'userName');
    const deactivated = user.active && resource.active === false;
    const action = deactivated ? 'scim.user.deactivated' : 'scim.user.updated';
    return { resource, changed: changedPaths.length > 0, action, trigger: 'update' };
  });
  if (planned) return planned;
  return em.transactional(async (tx) => {
    const user = await loadForWrite(tx, tenantId, id, ifMatch);
    const { resource, changedPaths } = applyPatch(user.resource, body, 'User', { id });
    requiredString(resource, 'userName');
    const wasActive = user.active;
    if (changedPaths.length) {
      setUserColumns(user, resource);
      user.updatedAt = new Date();
      user.version += 1;
    }
    const action = wasActive && !user.active ? 'scim.user.deactivated' : 'scim.user.updated';
    return { user, sync: await commitUser(tx, s, user, 'update', action, actor) };
  });
}

export async function deleteScimUser(c: ScimCall, id: string, ifMatch?: string): Promise<SyncOutcome> {
  const { em, services: s, tenantId, actor } = c;
  const planned = await changeUser(c, id, ifMatch, () => ({
    resource: null,
    changed: true,
    action: 'scim.user.deleted',
    trigger: 'remove',
  }));
  if (planned) return planned.sync;
  return em.transactional(async (tx) => {
    const user = await loadForWrite(tx, tenantId, id, ifMatch);
    const tenant = await getTenant(tx, tenantId);
    const sync = await syncUserCredential(tx, s, tenant, user, [], 'remove', actor);
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'scim.user.deleted',
      subject: id,
      details: { credential: sync.outcome, issued: [], revoked: sync.revoked },
    });
    tx.remove(user);
    await tx.flush();
    return sync;
  });
}

export async function getScimUser(em: EntityManager, tenantId: string, id: string): Promise<ScimUser> {
  if (!isUuid(id)) throw notFound(id);
  const user = await em.findOne(ScimUser, { id, tenantId });
  if (!user) throw notFound(id);
  return user;
}
