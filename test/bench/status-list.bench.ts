import { generateKeyPairSync, randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CompactSign, type JWK } from 'jose';
import type { Signer } from '../../server/keys/signer.js';
import { migrate, openOrm } from '../../server/persistence/orm.js';
import { allocateStatusEntry } from '../../server/status-list/allocate-status-entry.js';
import { setCredentialStatus } from '../../server/status-list/set-credential-status.js';
import {
  encodeStatusList,
  StatusType,
  statusByteLength,
  writeStatus,
} from '../../server/status-list/status-list-encoding.js';
import { buildStatusListToken } from '../../server/status-list/status-list-token.js';
import { measure, scratchDatabase } from './harness.js';

/**
 * Part of `npm run bench` (`npm run bench -- status-list` alone): the cost of a Status List Token of 1,000,000 entries
 * at 1% revoked, and allocations per second against PostgreSQL (BENCH_DATABASE_URL, default the
 * local server; a scratch database is created and dropped).
 */
const ENTRIES = 1_000_000;
const REVOKED = ENTRIES / 100;
const RUNS = 10;

/** An in-memory ES256 signer, so the token figures measure this module and not the key store. */
function memorySigner(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: 'bench', alg: 'ES256' };
  return {
    signJwt: async (_purpose, header, payload) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ ...header, alg: 'ES256', kid: 'bench' })
        .sign(privateKey),
    sign: async () => {
      throw new Error('not used');
    },
    activeKid: async () => 'bench',
    publicJwks: async () => [jwk],
    certificateChain: async () => [],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (x: number) => +x.toFixed(2);

async function time<T>(op: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await op();
  return { ms: performance.now() - t0, value };
}

async function tokenFigures() {
  const signer = memorySigner();
  const pack = () => {
    const bytes = new Uint8Array(statusByteLength(ENTRIES, 2));
    const revoked = new Set<number>();
    while (revoked.size < REVOKED) revoked.add(randomInt(ENTRIES));
    for (const idx of revoked) writeStatus(bytes, 2, idx, StatusType.INVALID);
    return bytes;
  };
  const packMs: number[] = [];
  const compressMs: number[] = [];
  const buildMs: number[] = [];
  let token = '';
  let lst = '';
  for (let run = 0; run < RUNS; run++) {
    const packed = await time(pack);
    packMs.push(packed.ms);
    const compressed = await time(() => encodeStatusList(packed.value));
    compressMs.push(compressed.ms);
    lst = compressed.value;
    const uri = 'https://issuer.example/status-lists/00000000-0000-4000-8000-000000000000';
    const built = await time(() => buildStatusListToken(signer, { uri, bits: 2, statuses: packed.value }));
    buildMs.push(built.ms);
    token = built.value.token;
  }
  return {
    entries: ENTRIES,
    bits: 2,
    revoked: REVOKED,
    runs: RUNS,
    pack_ms_median: ms(median(packMs)),
    compress_ms_median: ms(median(compressMs)),
    build_compress_sign_ms_median: ms(median(buildMs)),
    raw_bytes: statusByteLength(ENTRIES, 2),
    lst_chars: lst.length,
    token_bytes: Buffer.byteLength(token),
  };
}

async function databaseFigures() {
  const db = await scratchDatabase();
  const orm = await openOrm({ url: db.url, poolMax: 10 });
  try {
    await migrate(orm, db.url);
    const issuerUrl = 'https://issuer.example';
    const allocate = () => orm.em.fork().transactional((tx) => allocateStatusEntry(tx, issuerUrl));
    const first = await allocate(); // opens the list
    const results = [
      await measure('allocate a status entry (one transaction each)', 3000, 1, allocate),
      await measure('allocate a status entry (one transaction each)', 6000, 8, allocate),
      await measure('allocate a status entry (one transaction each)', 6000, 16, allocate),
      await measure('revoke an entry of one 131072-entry list (one transaction each)', 2000, 8, () =>
        orm.em
          .fork()
          .transactional((tx) =>
            setCredentialStatus(tx, { listId: first.listId, idx: randomInt(131_072) }, 'invalid'),
          ),
      ),
    ];
    return results;
  } finally {
    await orm.close();
    await db.drop();
  }
}

/** Status list figures: token build for 1,000,000 entries at 1% revoked, allocations, revocations. */
export async function statusListBench() {
  return { token: await tokenFigures(), database: await databaseFigures() };
}
