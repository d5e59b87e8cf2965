import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Signer } from '../keys/signer.js';
import { recordEffect } from '../outbox/outbox.js';
import { OutboxMessage } from '../outbox/outbox-message.entity.js';
import { applyStatusChanges, takeStatusChanges } from './status-list-changes.js';
import type { StatusBits } from './status-list-encoding.js';
import { buildStatusListToken, STATUS_LIST_RENEW_AFTER_SECONDS, statusListUri } from './status-list-token.js';

export type PublishOutcome = 'published' | 'current' | 'busy';

interface TokenState {
  version: string | null;
  issued_at: Date | string | null;
  refresh_at: Date | string | null;
  now: Date | string;
  list_version: string;
  pending: boolean;
}

/** Builds in a row for one job before it hands the rest over to a fresh job (a flood must not pin one). */
const MAX_BUILDS_PER_RUN = 100;

/**
 * Brings a list's stored token up to date, coalescing bursts: one caller builds at a time and
 * every build takes in all changes committed before it began, so N changes cost a handful of
 * builds, not N. Returns how many builds it made.
 *
 * A caller that finds another one building does nothing (`busy`): its change committed before it
 * looked, and the builder stops only when a check made after its own last commit finds nothing
 * pending (or when it in turn finds a later builder busy), so that change is folded by the builder
 * or by its successor. If the builder dies first, its own job has not completed and runs again.
 * `wait` (used when no token exists yet) queues behind a builder instead.
 */
export async function publishLatestStatusList(
  em: EntityManager,
  signer: Signer,
  issuerUrl: string,
  listId: string,
  options: { wait?: boolean } = {},
): Promise<number> {
  // Warm the signer's key cache now, not while holding the row lock.
  await signer.activeKid('status-list');
  let wait = options.wait ?? false;
  for (let builds = 0; ; ) {
    if (builds === MAX_BUILDS_PER_RUN) {
      await em.transactional((tx) => recordEffect(tx, 'status-list', { listId }));
      return builds;
    }
    const outcome = await publishStatusListOnce(em, signer, issuerUrl, listId, wait);
    wait = false;
    if (outcome === 'busy') return builds;
    if (outcome === 'published') builds++;
    else if (!(await hasPendingChanges(em, listId))) return builds;
  }
}

const hasPendingChanges = async (em: EntityManager, listId: string) =>
  (
    await em.execute<{ pending: boolean }[]>(
      'select exists (select 1 from status_list_change where list_id = ?) as pending',
      [listId],
    )
  )[0]?.pending === true;

/**
 * One pass, in one transaction holding the token row's lock: rebuilds when the list has pending
 * changes, was never built or is due for renewal, and keeps one renewal job scheduled. A rebuild
 * folds the pending changes into the stored list (status-list-changes.ts) in the same transaction as
 * it stores the token, so a change is either in both or still pending. All times come from the
 * database clock, the one the outbox schedules by.
 */
export async function publishStatusListOnce(
  em: EntityManager,
  signer: Signer,
  issuerUrl: string,
  listId: string,
  wait: boolean,
): Promise<PublishOutcome> {
  return em.transactional(async (tx) => {
    const [token] = await tx.execute<TokenState[]>(
      `select t.version, t.issued_at, t.refresh_at, now() as now, l.version as list_version,
         exists (select 1 from status_list_change c where c.list_id = t.list_id) as pending
       from status_list_token t join status_list l on l.id = t.list_id
       where t.list_id = ?
       for update of t${wait ? '' : ' skip locked'}`,
      [listId],
    );
    if (!token) {
      const exists = await tx.execute('select 1 from status_list_token where list_id = ?', [listId]);
      if (exists.length === 0) throw new Error(`status list ${listId} does not exist`);
      return 'busy';
    }
    const now = new Date(token.now);
    let issuedAt = token.issued_at === null ? null : new Date(token.issued_at);
    const renewAt = (from: Date) => new Date(from.getTime() + STATUS_LIST_RENEW_AFTER_SECONDS * 1000);
    const stale =
      token.pending ||
      token.version === null ||
      issuedAt === null ||
      BigInt(token.version) < BigInt(token.list_version) ||
      renewAt(issuedAt) <= now;

    if (stale) {
      const content = await foldPendingChanges(tx, listId);
      const uri = statusListUri(issuerUrl, listId);
      const signed = await buildStatusListToken(signer, { uri, ...content }, now);
      await tx.execute(
        'update status_list_token set version = ?, token = ?, issued_at = ?, expires_at = ? where list_id = ?',
        [
          content.version,
          signed.token,
          signed.issuedAt.toISOString(),
          signed.expiresAt.toISOString(),
          listId,
        ],
      );
      issuedAt = signed.issuedAt;
    }

    // The renewal job fired (or none was ever scheduled): schedule the next one.
    const refreshAt = token.refresh_at === null ? null : new Date(token.refresh_at);
    if (issuedAt && (refreshAt === null || refreshAt <= now)) {
      await scheduleRenewal(tx, listId, renewAt(issuedAt));
    }
    return stale ? 'published' : 'current';
  });
}

/**
 * Takes the list's pending changes and writes the list with them applied; returns what to publish.
 * Only the builder, holding the token row, writes the list row, so nothing else waits for it.
 */
async function foldPendingChanges(tx: EntityManager, listId: string) {
  const changes = await takeStatusChanges(tx, listId);
  const [list] = await tx.execute<{ bits: number; statuses: Buffer; version: string }[]>(
    'select bits, statuses, version from status_list where id = ?',
    [listId],
  );
  if (!list) throw new Error(`status list ${listId} does not exist`);
  const bits = list.bits as StatusBits;
  const statuses = applyStatusChanges(list.statuses, bits, changes);
  const version = BigInt(list.version) + BigInt(changes.length);
  if (changes.length > 0) {
    await tx.execute('update status_list set statuses = ?, version = ? where id = ?', [
      statuses,
      version.toString(),
      listId,
    ]);
  }
  return { bits, statuses, version: version.toString() };
}

/**
 * An outbox message due at `at` rather than now: the relays only claim messages whose time has come.
 * (recordEffect always means "now"; this is its delayed twin.)
 */
async function scheduleRenewal(tx: EntityManager, listId: string, at: Date): Promise<void> {
  await tx.insert(OutboxMessage, {
    id: randomUUID(),
    topic: 'status-list',
    payload: { listId },
    status: 'pending',
    attempts: 0,
    availableAt: at,
    lastError: null,
    createdAt: new Date(),
    finishedAt: null,
  });
  await tx.execute('update status_list_token set refresh_at = ? where list_id = ?', [
    at.toISOString(),
    listId,
  ]);
}
