import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { FetchedList } from './fetch-trust-list.js';
import { fetchTrustList } from './fetch-trust-list.js';
import { sourceState } from './source-status.js';
import { tenantTrustChanged } from './tenant-trust.js';
import type { TrustServices } from './trust-services.js';
import { TrustSourceRow } from './trust-source.entity.js';

/** After a failed fetch, try again this soon (or at the source's own interval, if shorter). */
const RETRY_SECONDS = 300;

/**
 * When to fetch next: the list's NextUpdate, but no later than the source's interval and the
 * deployment's ceiling, and no sooner than a minute (a list already past its NextUpdate is retried
 * like a failure, not in a loop).
 */
function nextFetch(row: TrustSourceRow, fetched: FetchedList | undefined, s: TrustServices, now: Date) {
  const ceiling = Math.min(
    row.refreshSeconds ?? Number.POSITIVE_INFINITY,
    s.settings.TRUST_LIST_REFRESH_SECONDS,
  );
  let seconds = fetched ? ceiling : Math.min(ceiling, RETRY_SECONDS);
  if (fetched?.nextUpdate) seconds = Math.min(seconds, (fetched.nextUpdate.getTime() - now.getTime()) / 1000);
  return new Date(now.getTime() + Math.max(60, seconds) * 1000);
}

/**
 * Fetches a source's list now and stores the outcome: a list that validated replaces the copy in
 * force (every node's trust is rebuilt at commit); one that did not leaves the copy in force and
 * records why. Changes of what vouches and of the source's state are audited; a failure is logged.
 * Never throws for the list's sake: the row's status says how it went.
 */
export async function refreshTrustSource(
  em: EntityManager,
  s: TrustServices,
  row: TrustSourceRow,
  actor: string,
): Promise<TrustSourceRow> {
  const now = new Date();
  const grace = s.settings.TRUST_LIST_GRACE_SECONDS;
  const before = sourceState(row, grace, now);
  let fetched: FetchedList | undefined;
  let error: string | null = null;
  try {
    fetched = await fetchTrustList(s.fetch, row, now);
    if (fetched.failedPointers.length) error = `pointed lists failed: ${fetched.failedPointers.join('; ')}`;
  } catch (e) {
    error = `${(e as { code?: string }).code ? `${(e as { code: string }).code}: ` : ''}${(e as Error).message}`;
    s.logger.warn(
      { source: row.id, url: row.url, err: error },
      'trust list not refreshed; the last good copy stays in force',
    );
  }
  const listedChanged =
    fetched !== undefined && JSON.stringify(fetched.listed) !== JSON.stringify(row.listed);
  const updated: TrustSourceRow = {
    ...row,
    ...(fetched ? { listed: fetched.listed, fetchedAt: now, nextUpdate: fetched.nextUpdate } : {}),
    error,
    nextFetchAt: nextFetch(row, fetched, s, now),
  };
  const after = sourceState(updated, grace, now);
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(
      TrustSourceRow,
      { id: row.id },
      {
        listed: updated.listed,
        fetchedAt: updated.fetchedAt,
        nextUpdate: updated.nextUpdate,
        error: updated.error,
        nextFetchAt: updated.nextFetchAt,
      },
    );
    if (listedChanged) await tenantTrustChanged(tx, row.tenantId);
    if (listedChanged || before !== after || error !== row.error)
      await appendAuditEvent(tx, {
        tenantId: row.tenantId,
        actor,
        action: fetched ? 'trust.source_refreshed' : 'trust.source_refresh_failed',
        subject: row.id,
        details: {
          url: row.url,
          state: after,
          entries: updated.listed?.length ?? 0,
          ...(updated.nextUpdate ? { next_update: updated.nextUpdate.toISOString() } : {}),
          ...(error ? { error } : {}),
        },
      });
  });
  return updated;
}
