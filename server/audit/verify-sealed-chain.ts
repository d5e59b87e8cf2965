import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from './audit-event.entity.js';
import { GENESIS_HASH, hashEvent } from './audit-log.js';

export interface ChainVerification {
  valid: boolean;
  /** Sealed events checked. */
  checked: number;
  firstInvalidSeq: number | null;
  reason: string | null;
}

const BATCH = 1000;

/**
 * Walks the tenant's sealed chain from the first event: every seq present, every hash recomputed,
 * every link pointing at its predecessor; then the chain must end at `head` (the sealer's record of
 * its last event), or its newest events were cut off. Reads in batches so long logs do not load at
 * once; callers wanting a consistent answer while a sealer runs call it in one snapshot.
 */
export async function verifySealedChain(
  em: EntityManager,
  tenantId: string,
  head: { seq: number; hash: string } | undefined,
): Promise<ChainVerification> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  for (;;) {
    const batch = await em.find(
      AuditEvent,
      { tenantId, seq: { $gte: expectedSeq } },
      { orderBy: { seq: 'asc' }, limit: BATCH },
    );
    for (const e of batch) {
      const broken = (reason: string) => ({
        valid: false,
        checked: expectedSeq,
        firstInvalidSeq: expectedSeq,
        reason,
      });
      if (e.seq !== expectedSeq) return broken(`event ${expectedSeq} is missing`);
      if (e.prevHash !== prevHash) return broken(`event ${e.seq} does not link to its predecessor`);
      if (hashEvent(e) !== e.hash) return broken(`event ${e.seq} was altered after it was written`);
      prevHash = e.hash;
      expectedSeq++;
    }
    em.clear();
    if (batch.length < BATCH) return checkHead(head, expectedSeq - 1, prevHash);
  }
}

/** The chain must end where the tenant's head says it ends; otherwise its newest events were cut off. */
function checkHead(
  head: { seq: number; hash: string } | undefined,
  lastSeq: number,
  lastHash: string,
): ChainVerification {
  if (head && (head.seq !== lastSeq || head.hash !== lastHash)) {
    const reason =
      head.seq > lastSeq
        ? `events after ${lastSeq} are missing (the log was cut short)`
        : `the log does not end at its recorded head`;
    return { valid: false, checked: lastSeq, firstInvalidSeq: Math.min(head.seq, lastSeq + 1), reason };
  }
  return { valid: true, checked: lastSeq, firstInvalidSeq: null, reason: null };
}
