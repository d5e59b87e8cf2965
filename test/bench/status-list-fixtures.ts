import { generateKeyPairSync, randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompactSign, type JWK } from 'jose';
import type { Signer } from '../../server/keys/signer.js';
import type { Orm } from '../../server/persistence/orm.js';
import { allocateStatusEntry } from '../../server/status-list/allocate-status-entry.js';
import { StatusType, statusByteLength, writeStatus } from '../../server/status-list/status-list-encoding.js';

/** What the status-list benchmarks set up: a signer, packed lists, a tenant with credentials on one list. */

/** An in-memory ES256 signer, so the figures measure status lists and not the key store. */
export function memorySigner(): Signer {
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

/** A 2-bit list of `entries` with `share` of them (at random positions) INVALID. */
export function packedList(entries: number, share: number): Uint8Array {
  const bytes = new Uint8Array(statusByteLength(entries, 2));
  const revoked = new Set<number>();
  while (revoked.size < Math.round(entries * share)) revoked.add(randomInt(entries));
  for (const idx of revoked) writeStatus(bytes, 2, idx, StatusType.INVALID);
  return bytes;
}

/** A list row of its own far beyond the allocation sequence, with `bytes` as its statuses and a token row. */
export async function insertList(em: EntityManager, entries: number, bytes: Uint8Array): Promise<string> {
  const id = randomUUID();
  await em.execute(
    `insert into status_list (id, seq_start, size, bits, seed, statuses, version, created_at)
     values (?, ?, ?, 2, decode(repeat('00', 32), 'hex'), ?, 0, now())`,
    [id, 2 ** 50 + randomInt(2 ** 40), entries, Buffer.from(bytes)],
  );
  await em.execute('insert into status_list_token (list_id) values (?)', [id]);
  return id;
}

/** A tenant with `count` valid credentials, all on the service's current list. */
export async function credentialsOnOneList(em: EntityManager, issuerUrl: string, count: number) {
  const tenantId = `bench-${randomUUID().slice(0, 8)}`;
  await em.execute(
    "insert into tenant (id, name, delivery, created_at, updated_at) values (?, 'Bench', 'direct', now(), now())",
    [tenantId],
  );
  const entries = await em.fork().transactional(async (tx) => {
    const all = [];
    for (let i = 0; i < count; i++) all.push(await allocateStatusEntry(tx, issuerUrl));
    return all;
  });
  const listIds = new Set(entries.map((e) => e.listId));
  if (listIds.size !== 1) throw new Error('the credentials spread over more than one list');
  const credentials = entries.map((e) => ({ id: randomUUID(), ...e }));
  await em.execute(
    `insert into issued_credential (id, tenant_id, configuration_id, status_list_id, status_idx, status, issued_at, expires_at)
     select id, ?, 'bench', ?, idx, 'valid', now(), now() + interval '1 year'
     from unnest(?::uuid[], ?::int[]) as c(id, idx)`,
    [
      tenantId,
      entries[0]?.listId,
      `{${credentials.map((c) => c.id).join(',')}}`,
      `{${credentials.map((c) => c.idx).join(',')}}`,
    ],
  );
  return { tenantId, listId: entries[0]?.listId as string, credentials };
}

/** CPU time of this process and of the database's PostgreSQL backends (/proc, this machine) from now on. */
export async function cpuMeter(orm: Orm) {
  const backends = async () =>
    (
      await orm.em
        .fork()
        .execute<{ pid: number }[]>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
    ).map((r) => r.pid);
  const backendNs = (pid: number) => {
    try {
      return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return 0;
    }
  };
  const startPids = await backends();
  const start = new Map(startPids.map((pid) => [pid, backendNs(pid)]));
  const node = process.cpuUsage();
  return {
    async read() {
      const pids = await backends();
      const postgresNs = pids.reduce((sum, pid) => sum + backendNs(pid) - (start.get(pid) ?? 0), 0);
      const { user, system } = process.cpuUsage(node);
      return { nodeMs: (user + system) / 1000, postgresMs: postgresNs / 1e6 };
    },
  };
}
