import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { buildStatusListCwt } from '../formats/mso-mdoc/build-status-list-cwt.js';
import type { Signer } from '../keys/signer.js';
import { OutboxMessage } from '../outbox/outbox-message.entity.js';
import { foldPendingChanges } from './fold-status-changes.js';
import { buildStatusListToken, STATUS_LIST_RENEW_AFTER_SECONDS, statusListUri } from './status-list-token.js';

export type PublishOutcome = 'published' | 'current' | 'busy';

interface TokenState {
  version: string | null;
  issued_at: Date | string | null;
  refresh_at: Date | string | null;
  now: Date | string;
  list_version: string;
  pending: boolean;
  without_cwt: boolean;
}

/**
 * One pass, in one transaction holding the token row's lock: rebuilds when the list has pending
 * changes, was never built or is due for renewal, and keeps one renewal job scheduled. A rebuild
 * folds the pending changes into the stored list (fold-status-changes.ts) in the same transaction as
 * it stores the token, so a change is either in both or still pending. All times come from the
 * database clock, the one the outbox schedules by.
 *
 * `notBefore` (a `performance.now()` time) delays a rebuild while holding the lock: callers that
 * come meanwhile find the list busy and leave, and the rebuild then takes in all their changes.
 */
export async function publishStatusListOnce(
  em: EntityManager,
  signer: Signer,
  issuerUrl: string,
  listId: string,
  wait: boolean,
  notBefore = 0,
): Promise<PublishOutcome> {
  return em.transactional(async (tx) => {
    const [token] = await tx.execute<TokenState[]>(
      `select t.version, t.issued_at, t.refresh_at, now() as now, l.version as list_version,
         exists (select 1 from status_list_change c where c.list_id = t.list_id) as pending,
         t.cwt is null as without_cwt
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
    let now = new Date(token.now);
    let issuedAt = token.issued_at === null ? null : new Date(token.issued_at);
    const renewAt = (from: Date) => new Date(from.getTime() + STATUS_LIST_RENEW_AFTER_SECONDS * 1000);
    const stale =
      token.pending ||
      token.without_cwt ||
      token.version === null ||
      issuedAt === null ||
      BigInt(token.version) < BigInt(token.list_version) ||
      renewAt(issuedAt) <= now;

    if (stale) {
      const delay = notBefore - performance.now();
      if (delay > 0) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        now = new Date(now.getTime() + delay);
      }
      const content = await foldPendingChanges(tx, listId);
      const uri = statusListUri(issuerUrl, listId);
      // Both forms of the list at once (JWT for SD-JWT VCs, CWT for mdocs), so they never disagree.
      const [signed, cwt] = await Promise.all([
        buildStatusListToken(signer, { uri, ...content }, now),
        buildStatusListCwt(signer, { uri, ...content }, now),
      ]);
      await tx.execute(
        'update status_list_token set version = ?, token = ?, cwt = ?, issued_at = ?, expires_at = ? where list_id = ?',
        [
          content.version,
          signed.token,
          Buffer.from(cwt.token),
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
