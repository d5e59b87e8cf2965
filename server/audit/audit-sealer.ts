import type { EntityManager } from '@mikro-orm/postgresql';
import type { Signer } from '../keys/signer.js';
import { checkCheckpoint, signCheckpoint } from './audit-checkpoint.js';
import { GENESIS_HASH, hashEvent } from './audit-log.js';
import { verifySealedChain } from './verify-sealed-chain.js';

/** Events sealed per transaction: one delete, one insert, one signature and one head update each. */
export const SEAL_BATCH = 1000;

interface Head {
  seq: number;
  hash: string;
  checkpoint: string | null;
}

interface PendingRow {
  pos: string;
  id: string;
  actor: string;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

export type SealOutcome =
  | { kind: 'sealed'; sealed: number; seq: number }
  | { kind: 'busy' }
  | { kind: 'refused'; reason: string };

/** Checkpoints this process wrote, by tenant: the next batch trusts them without a signature check. */
const written = new Map<string, Head>();

/**
 * Seals the oldest `limit` unsealed events of a tenant, in insertion order: each gets the next seq,
 * the previous hash and its own, and the new head is signed. Holds the head row's lock, which only
 * sealers take (`skip locked`: a second sealer of the tenant, on any node, goes elsewhere).
 * Refuses to extend a head whose checkpoint does not verify, so a rewritten chain is never re-signed.
 */
export async function sealTenant(
  em: EntityManager,
  signer: Signer,
  tenantId: string,
  options: { limit?: number; wait?: boolean } = {},
): Promise<SealOutcome> {
  const limit = options.limit ?? SEAL_BATCH;
  await signer.activeKid('audit'); // loads the key now rather than under the lock
  return em.transactional(async (tx): Promise<SealOutcome> => {
    const head = await lockHead(tx, tenantId, options.wait ?? false);
    if (!head) return { kind: 'busy' };
    const distrust = await distrustOf(tx, signer, tenantId, head);
    if (distrust) return { kind: 'refused', reason: distrust };

    const rows = await tx.execute<PendingRow[]>(
      `delete from audit_pending where pos in (
         select pos from audit_pending where tenant_id = ? order by pos limit ?)
       returning pos, id, actor, action, subject, details, created_at`,
      [tenantId, limit],
    );
    if (rows.length === 0 && head.checkpoint) return { kind: 'sealed', sealed: 0, seq: head.seq };
    rows.sort((a, b) => (BigInt(a.pos) < BigInt(b.pos) ? -1 : 1));

    let { seq, hash } = head;
    const events = rows.map((r) => {
      const e = {
        tenantId,
        seq: seq + 1,
        actor: r.actor,
        action: r.action,
        subject: r.subject,
        details: r.details,
        createdAt: new Date(r.created_at),
        prevHash: hash,
      };
      seq = e.seq;
      hash = hashEvent(e);
      return { ...e, id: r.id, hash };
    });
    if (events.length) await insertSealed(tx, events);

    const at = new Date();
    const checkpoint = await signCheckpoint(signer, { tenant: tenantId, seq, hash }, at);
    await tx.execute(
      'update audit_head set seq = ?, hash = ?, checkpoint = ?, sealed_at = ? where tenant_id = ?',
      [seq, hash, checkpoint, at.toISOString(), tenantId],
    );
    written.set(tenantId, { seq, hash, checkpoint });
    return { kind: 'sealed', sealed: events.length, seq };
  });
}

/**
 * The head row, locked; created at the genesis for a tenant's first seal; null when another sealer
 * has it (unless `wait`, which queues behind that sealer instead).
 */
async function lockHead(tx: EntityManager, tenantId: string, wait: boolean): Promise<Head | null> {
  const [head] = await tx.execute<Head[]>(
    `select seq, hash, checkpoint from audit_head where tenant_id = ? for update${wait ? '' : ' skip locked'}`,
    [tenantId],
  );
  if (head) return head;
  const [created] = await tx.execute<Head[]>(
    `insert into audit_head (tenant_id, seq, hash) values (?, 0, ?)
     on conflict (tenant_id) do nothing returning seq, hash, checkpoint`,
    [tenantId, GENESIS_HASH],
  );
  return created ?? null;
}

/** Why the head must not be extended, or null when it may. */
async function distrustOf(
  tx: EntityManager,
  signer: Signer,
  tenantId: string,
  head: Head,
): Promise<string | null> {
  if (!head.checkpoint) {
    if (head.seq === 0) return null;
    // A head from before checkpoints: signed once, and only after its whole chain verifies.
    const chain = await verifySealedChain(tx, tenantId, head);
    return chain.valid ? null : `the chain does not verify: ${chain.reason}`;
  }
  const mine = written.get(tenantId);
  if (mine && mine.checkpoint === head.checkpoint && mine.seq === head.seq && mine.hash === head.hash) {
    return null;
  }
  const check = await checkCheckpoint(signer, head.checkpoint, { tenant: tenantId, ...head });
  return check.ok ? null : check.reason;
}

async function insertSealed(
  tx: EntityManager,
  events: { id: string; tenantId: string; seq: number; createdAt: Date; prevHash: string; hash: string }[],
): Promise<void> {
  const rows = events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
  await tx.execute(
    `insert into audit_event (id, tenant_id, seq, actor, action, subject, details, created_at, prev_hash, hash)
     select id, "tenantId", seq, actor, action, subject, details, "createdAt", "prevHash", hash
     from jsonb_to_recordset(cast(? as jsonb)) as r(
       id uuid, "tenantId" text, seq integer, actor text, action text, subject text, details jsonb,
       "createdAt" timestamptz, "prevHash" text, hash text)`,
    [JSON.stringify(rows)],
  );
}
