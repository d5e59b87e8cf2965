import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Work a transaction saves for its very end. The audit phase writes all of a transaction's audit
 * events in one multi-row INSERT, taking no lock (audit/audit-log.ts; the chain is sealed later).
 * Phases run in a fixed order, each in key order, so that any writer that does lock something here
 * locks in the same order as its concurrent peers. (Status changes need no phase: they append rows
 * and lock nothing shared; see status-list/set-credential-status.ts.)
 */
export type CommitPhase = 'audit';
const PHASES: CommitPhase[] = ['audit'];

type Task = (tx: EntityManager) => Promise<void>;
const pending = new WeakMap<object, Map<CommitPhase, Map<string, Task[]>>>();

/** Runs `task` in the caller's transaction just before it commits; nothing runs if it rolls back. */
export function beforeCommit(tx: EntityManager, phase: CommitPhase, key: string, task: Task): void {
  const context = tx.isInTransaction() ? tx.getTransactionContext() : undefined;
  if (!context) throw new Error(`${phase} writes must run inside a transaction`);
  const phases = pending.get(context) ?? new Map<CommitPhase, Map<string, Task[]>>();
  const byKey = phases.get(phase) ?? new Map<string, Task[]>();
  byKey.set(key, [...(byKey.get(key) ?? []), task]);
  phases.set(phase, byKey);
  pending.set(context, phases);
}

export class BeforeCommitRunner implements EventSubscriber {
  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const phases = args.transaction ? pending.get(args.transaction) : undefined;
    if (!phases || !args.em) return;
    pending.delete(args.transaction as object);
    for (const phase of PHASES) {
      const byKey = phases.get(phase);
      for (const key of [...(byKey?.keys() ?? [])].sort()) {
        for (const task of byKey?.get(key) ?? []) await task(args.em as EntityManager);
      }
    }
  }
}
