import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { changeCredentialStatus } from '../../server/issuance/change-credential-status.js';
import type { Orm } from '../../server/persistence/orm.js';
import { decodeStatusList, readStatus, StatusType } from '../../server/status-list/status-list-encoding.js';
import { scheduleStatusListPublishing } from '../../workers/status-list/status-list-schedule.js';
import { cpuMeter, memorySigner } from './status-list-fixtures.js';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (x: number) => +x.toFixed(1);

/**
 * A burst of revocations on one list with the real publishing path running (the worker's look for
 * pending changes and the publisher): how fast they commit, the CPU each costs (this process, which
 * also publishes, and the PostgreSQL backends), and how long each takes from its commit to being
 * read INVALID in the stored token (what GET /status-lists/:id serves).
 */
export async function revocationBurst(
  orm: Orm,
  issuerUrl: string,
  burst: { tenantId: string; listId: string; credentials: { id: string; idx: number }[] },
  concurrency: number,
) {
  const logger = pino({ level: 'warn' });
  const stopPublishing = scheduleStatusListPublishing(orm, { signer: memorySigner(), issuerUrl, logger });
  const cpu = await cpuMeter(orm);

  const committedAt = new Map<number, number>();
  const visibleAfter: number[] = [];
  const tokens = new Set<string>();
  let watching = true;
  let latest: Uint8Array | undefined;
  const watcher = (async () => {
    const deadline = performance.now() + 120_000;
    while (watching || committedAt.size > 0) {
      if (performance.now() > deadline) throw new Error(`${committedAt.size} revocations never published`);
      const [row] = await orm.em
        .fork()
        .execute<{ token: string | null }[]>('select token from status_list_token where list_id = ?', [
          burst.listId,
        ]);
      const seenAt = performance.now();
      if (row?.token && !tokens.has(row.token)) {
        tokens.add(row.token);
        const payload = JSON.parse(Buffer.from(row.token.split('.')[1] ?? '', 'base64url').toString());
        latest = decodeStatusList(payload.status_list.lst);
      }
      for (const [idx, at] of committedAt)
        if (latest && readStatus(latest, 2, idx) === StatusType.INVALID) {
          visibleAfter.push(Math.max(0, seenAt - at));
          committedAt.delete(idx);
        }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();

  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < burst.credentials.length) {
        const c = burst.credentials[next++] as { id: string; idx: number };
        await changeCredentialStatus(orm.em.fork(), burst.tenantId, c.id, 'revoke', 'bench');
        committedAt.set(c.idx, performance.now());
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  watching = false;
  await watcher;
  const used = await cpu.read();
  await stopPublishing();
  visibleAfter.sort((a, b) => a - b);
  return {
    name: 'burst of revocations on one list, published by the worker as they come',
    revocations: burst.credentials.length,
    concurrency,
    revocations_per_second: Math.round(burst.credentials.length / seconds),
    tokens_seen: tokens.size,
    cpu_ms_per_revocation_node: ms(used.nodeMs / burst.credentials.length),
    cpu_ms_per_revocation_postgres: ms(used.postgresMs / burst.credentials.length),
    visible_after_commit_p50_ms: ms(percentile(visibleAfter, 50)),
    visible_after_commit_p99_ms: ms(percentile(visibleAfter, 99)),
    visible_after_commit_max_ms: ms(visibleAfter.at(-1) ?? 0),
  };
}
