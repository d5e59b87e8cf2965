import type { TrustSourceRow } from './trust-source.entity.js';

export type SourceState = 'ok' | 'stale' | 'failed';

/**
 * Until when the copy in force vouches: its NextUpdate plus the grace. A list without NextUpdate
 * (a closed list) vouches as long as it is kept; no copy vouches for nothing.
 */
export function vouchesUntil(row: Pick<TrustSourceRow, 'listed' | 'nextUpdate'>, graceSeconds: number) {
  if (!row.listed) return new Date(0);
  if (!row.nextUpdate) return new Date(8_640_000_000_000_000);
  return new Date(row.nextUpdate.getTime() + graceSeconds * 1000);
}

/**
 * ok: the last fetch validated and the copy is current; stale: a fetch failed (or the copy is past
 * its NextUpdate) but the copy still vouches within the grace; failed: nothing of it vouches.
 */
export function sourceState(
  row: Pick<TrustSourceRow, 'listed' | 'nextUpdate' | 'error'>,
  graceSeconds: number,
  now = new Date(),
): SourceState {
  if (vouchesUntil(row, graceSeconds) < now) return 'failed';
  if (row.error || (row.nextUpdate && row.nextUpdate < now)) return 'stale';
  return 'ok';
}

/** The contract's TrustSourceStatus of a row. */
export function sourceStatus(row: TrustSourceRow, graceSeconds: number, now = new Date()) {
  return {
    state: sourceState(row, graceSeconds, now),
    fetched_at: row.fetchedAt?.toISOString() ?? null,
    next_update: row.nextUpdate?.toISOString() ?? null,
    entities: new Set((row.listed ?? []).map((e) => `${e.territory ?? ''}|${e.entity}`)).size,
    error: row.error ?? null,
  };
}

/** What an operator reads in the tenant's warnings about a source that is not ok. */
export function sourceWarning(
  row: TrustSourceRow,
  graceSeconds: number,
  now = new Date(),
): string | undefined {
  const state = sourceState(row, graceSeconds, now);
  if (state === 'ok') return undefined;
  const why = row.error ? `: ${row.error}` : '';
  return state === 'stale'
    ? `trust source ${row.id} (${row.url}) is stale${why}; its last good copy vouches until ${vouchesUntil(row, graceSeconds).toISOString()}`
    : `trust source ${row.id} (${row.url}) vouches for nothing${why}`;
}
