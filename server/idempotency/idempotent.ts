import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { canonicalJson } from '../audit/canonical-json.js';
import { conflict, Problem } from '../http/problem.js';

/** How long a key's first answer is returned again. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export interface Answer {
  status: number;
  body: unknown;
}

export interface IdempotencyScope {
  tenantId: string;
  /** The Idempotency-Key header; absent: the request simply runs. */
  key: string | undefined;
  /** Method and path: a key reused on another route is another request, hence refused. */
  route: string;
  /** The validated body: the same request is the same route and body. */
  body: unknown;
}

const keyReused = () =>
  new Problem(
    422,
    'idempotency-key-reused',
    'Idempotency-Key reused',
    'This Idempotency-Key was used with another request in the last 24 hours; use a new key',
  );

/**
 * Runs `create` at most once per tenant and key within 24 hours, and answers a repeat with the first
 * answer (status and body). The key is claimed by the first statement of the transaction that makes
 * the change and answered before that transaction commits, so the answer exists exactly when the
 * change does. A concurrent duplicate's claim waits on the first one's row in PostgreSQL's unique
 * index, then reads its answer: it gets the same answer instead of a 409 to retry, and the wait is
 * one short transaction. A request that fails (4xx) commits nothing, so its key stays free.
 * Returns the answer and whether it is a replay.
 */
export async function idempotent<A extends Answer>(
  em: EntityManager,
  scope: IdempotencyScope,
  create: (em: EntityManager) => Promise<A>,
): Promise<{ answer: A; replayed: boolean }> {
  const { tenantId, key } = scope;
  if (key === undefined) return { answer: await create(em), replayed: false };
  const fingerprint = createHash('sha256')
    .update(`${scope.route}\n${canonicalJson(scope.body)}`)
    .digest('hex');
  return em.transactional(async (tx) => {
    const claimed = await tx.execute(
      `insert into idempotency_key (tenant_id, key, fingerprint, created_at, expires_at)
       values (?, ?, ?, now(), now() + make_interval(secs => ?))
       on conflict (tenant_id, key) do update set fingerprint = excluded.fingerprint,
         status_code = null, response = null, created_at = excluded.created_at, expires_at = excluded.expires_at
       where idempotency_key.expires_at <= now()
       returning 1`,
      [tenantId, key, fingerprint, IDEMPOTENCY_TTL_SECONDS],
    );
    if (!claimed.length) {
      const [first] = await tx.execute<{ fingerprint: string; status_code: number; response: unknown }[]>(
        'select fingerprint, status_code, response from idempotency_key where tenant_id = ? and key = ?',
        [tenantId, key],
      );
      // Gone between the two statements: only the expiry sweep deletes keys, and only expired ones.
      if (!first) throw conflict('the Idempotency-Key expired just now; send the request again');
      if (first.fingerprint !== fingerprint) throw keyReused();
      return { answer: { status: first.status_code, body: first.response } as A, replayed: true };
    }
    const answer = await create(tx);
    await tx.execute(
      'update idempotency_key set status_code = ?, response = cast(? as jsonb) where tenant_id = ? and key = ?',
      [answer.status, JSON.stringify(answer.body), tenantId, key],
    );
    return { answer, replayed: false };
  });
}
