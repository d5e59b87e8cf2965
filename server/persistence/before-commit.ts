import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Work a transaction saves for its very end, run in that transaction just before it commits and
 * not at all if it rolls back. The audit log uses it to write all of a transaction's events (and the
 * webhook deliveries they raise) in one statement, taking no lock (audit/audit-log.ts).
 */
type Task = (tx: EntityManager) => Promise<void>;
const pending = new WeakMap<object, Task[]>();

/** Runs `task` in the caller's transaction just before it commits, after the tasks saved before it. */
export function beforeCommit(tx: EntityManager, task: Task): void {
  const context = tx.isInTransaction() ? tx.getTransactionContext() : undefined;
  if (!context) throw new Error('work saved for the commit must run inside a transaction');
  const tasks = pending.get(context) ?? [];
  tasks.push(task);
  pending.set(context, tasks);
}

export class BeforeCommitRunner implements EventSubscriber {
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const tasks = args.transaction ? pending.get(args.transaction) : undefined;
    if (!tasks || !args.em) return;
    pending.delete(args.transaction as object);
    for (const task of tasks) await task(args.em as EntityManager);
  }
}
