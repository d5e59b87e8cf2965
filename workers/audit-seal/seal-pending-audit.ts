import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { SEAL_BATCH, type SealOutcome, sealTenant } from '../../server/audit/audit-sealer.js';
import type { Signer } from '../../server/keys/signer.js';

/** Batches one tenant may take in a row before the pass moves on: a flood must not starve the rest. */
const MAX_BATCHES_PER_TENANT = 10;
/** Tenants looked at per round, oldest waiting event first. */
const TENANTS_PER_ROUND = 100;

/**
 * Seals a tenant's unsealed events batch by batch (each its own transaction, so the head lock is
 * held briefly) until none are left, another sealer has the tenant (unless `wait`: then it queues
 * behind it), or `maxBatches` is reached.
 * Returns the last outcome and whether events may remain.
 */
export async function drainTenant(
  em: EntityManager,
  signer: Signer,
  tenantId: string,
  options: { maxBatches?: number; wait?: boolean } = {},
): Promise<{ outcome: SealOutcome; sealed: number; more: boolean }> {
  const maxBatches = options.maxBatches ?? MAX_BATCHES_PER_TENANT;
  let sealed = 0;
  for (let batch = 1; ; batch++) {
    const outcome = await sealTenant(em.fork(), signer, tenantId, { wait: options.wait ?? false });
    if (outcome.kind !== 'sealed') return { outcome, sealed, more: false };
    sealed += outcome.sealed;
    if (outcome.sealed < SEAL_BATCH) return { outcome, sealed, more: false };
    if (batch >= maxBatches) return { outcome, sealed, more: true };
  }
}

/**
 * One sealing pass over every tenant with unsealed events (and heads from before checkpoints, which
 * get their first signature). Rounds repeat while a tenant was left with a backlog. A tenant whose
 * head cannot be trusted is left unsealed and reported through `onRefused`, so its tail grows
 * visibly instead of being chained onto a rewritten log.
 */
export async function sealPendingAudit(
  em: EntityManager,
  signer: Signer,
  onRefused: (tenantId: string, reason: string) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const tenants = await em.fork().execute<{ tenant_id: string }[]>(
      `(select tenant_id from audit_pending group by tenant_id order by min(pos) limit ?)
       union
       (select tenant_id from audit_head where checkpoint is null limit ?)`,
      [TENANTS_PER_ROUND, TENANTS_PER_ROUND],
    );
    let backlog = false;
    let sealed = 0;
    for (const { tenant_id: tenantId } of tenants) {
      // One tenant's failure (say, a database error on its batch) must not stall every other one.
      const drained = await drainTenant(em, signer, tenantId).catch((e: unknown) => {
        onRefused(tenantId, `sealing failed: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      });
      if (!drained) continue;
      sealed += drained.sealed;
      backlog ||= drained.more;
      if (drained.outcome.kind === 'refused') onRefused(tenantId, drained.outcome.reason);
    }
    total += sealed;
    // Another round when work was left behind; never for tenants that are only busy or refused.
    if (!backlog && !(tenants.length >= TENANTS_PER_ROUND && sealed > 0)) return total;
  }
}

/** Logs a refusal or failure once per tenant and reason: the pass runs every few hundred milliseconds. */
export function refusalLogger(logger: Logger): (tenantId: string, reason: string) => void {
  const reported = new Map<string, string>();
  return (tenantId, reason) => {
    if (reported.get(tenantId) === reason) return;
    if (reported.size > 10_000) reported.clear();
    reported.set(tenantId, reason);
    logger.error({ tenant: tenantId, reason }, 'audit events of the tenant left unsealed');
  };
}
