import { constants, deflateSync } from 'node:zlib';
import { changeCredentialStatus } from '../../server/issuance/change-credential-status.js';
import { migrate, openOrm } from '../../server/persistence/orm.js';
import { allocateStatusEntry } from '../../server/status-list/allocate-status-entry.js';
import { publishStatusListOnce } from '../../server/status-list/publish-status-list-once.js';
import { encodeStatusList } from '../../server/status-list/status-list-encoding.js';
import { buildStatusListToken } from '../../server/status-list/status-list-token.js';
import { measure, scratchDatabase } from './harness.js';
import { revocationBurst } from './status-list-burst.js';
import { credentialsOnOneList, insertList, memorySigner, packedList } from './status-list-fixtures.js';

/**
 * Part of `npm run bench` (`npm run bench -- status-list` alone): Status List Tokens of 10,000,000
 * entries (encoding choices, a rebuild through the database), allocations and revocations per second,
 * and a burst of revocations published by the worker, against PostgreSQL and Redis
 * (BENCH_DATABASE_URL / BENCH_REDIS_URL, default the local servers; a scratch database is created
 * and dropped).
 */
const BIG = 10_000_000;
const RUNS = 5;
const URI = 'https://issuer.example/status-lists/00000000-0000-4000-8000-000000000000';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (x: number) => +x.toFixed(1);

function timed<T>(op: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = op();
  return { ms: performance.now() - t0, value };
}

/** The encoding in use against zlib's default strategy at levels 6 and 9, at 1% and 10% revoked. */
async function tokenFigures() {
  const signer = memorySigner();
  const figures = [];
  for (const share of [0.01, 0.1]) {
    const bytes = packedList(BIG, share);
    const deflate = (level: number) => () =>
      deflateSync(bytes, { level, strategy: constants.Z_DEFAULT_STRATEGY });
    const rows: Record<string, unknown> = { entries: BIG, bits: 2, revoked_share: share };
    for (const [name, op] of [
      ['in_use', () => Buffer.from(encodeStatusList(bytes), 'base64url')],
      ['level_6', deflate(6)],
      ['level_9', deflate(9)],
    ] as const) {
      const runs = Array.from({ length: name === 'in_use' ? RUNS : 2 }, () => timed(op));
      rows[`${name}_ms_median`] = ms(median(runs.map((r) => r.ms)));
      rows[`${name}_bytes`] = runs[0]?.value.length;
    }
    const builds = [];
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      await buildStatusListToken(signer, { uri: URI, bits: 2, statuses: bytes });
      builds.push(performance.now() - t0);
    }
    rows.build_compress_sign_ms_median = ms(median(builds));
    figures.push(rows);
  }
  return figures;
}

async function databaseFigures() {
  const db = await scratchDatabase();
  const orm = await openOrm({ url: db.url, poolMax: 20 });
  try {
    await migrate(orm, db.url);
    const issuerUrl = 'https://issuer.example';
    const em = orm.em.fork();
    const allocate = () => orm.em.fork().transactional((tx) => allocateStatusEntry(tx, issuerUrl));
    await allocate(); // opens the list
    const figures: unknown[] = [
      await measure('allocate a status entry (one transaction each)', 3000, 1, allocate),
      await measure('allocate a status entry (one transaction each)', 6000, 16, allocate),
    ];

    // Revocations through the API's own function: credential row, list change, outbox, audit event.
    const { tenantId, credentials } = await credentialsOnOneList(em, issuerUrl, 3000);
    const revoke = (i: number) =>
      changeCredentialStatus(orm.em.fork(), tenantId, credentials[i]?.id as string, 'revoke', 'bench');
    figures.push(await measure('revoke a credential, all on one list, no worker running', 3000, 16, revoke));

    // A rebuild of a 10M-entry list at 1% revoked through the publisher: 1,000 pending changes folded,
    // compressed, signed, list and token written back.
    const listId = await insertList(em, BIG, packedList(BIG, 0.01));
    const signer = memorySigner();
    const rebuilds = [];
    for (let run = 0; run < RUNS; run++) {
      await em.execute(
        `insert into status_list_change (list_id, idx, status)
         select ?, (random() * ?)::int % ?, 1 from generate_series(1, 1000)`,
        [listId, BIG, BIG],
      );
      const t0 = performance.now();
      await publishStatusListOnce(orm.em.fork(), signer, issuerUrl, listId, true);
      rebuilds.push(performance.now() - t0);
    }
    figures.push({
      name: `publish a ${BIG}-entry list at 1% revoked with 1,000 pending changes (fold, compress, sign, store)`,
      runs: RUNS,
      ms_median: ms(median(rebuilds)),
      ms_max: ms(Math.max(...rebuilds)),
    });

    const burst = await credentialsOnOneList(em, issuerUrl, 2000);
    figures.push(await revocationBurst(orm, issuerUrl, burst, 16));
    return figures;
  } finally {
    await orm.close();
    await db.drop();
  }
}

/** Status list figures: 10M-entry tokens, allocations, revocations, publishing under a burst. */
export async function statusListBench() {
  return { token: await tokenFigures(), database: await databaseFigures() };
}
