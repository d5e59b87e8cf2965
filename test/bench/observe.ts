import { DatabaseCpu } from './database-cpu.js';
import type { Figure } from './harness.js';
import type { ProbeSnapshot } from './process-probe.js';

/** A benchmarked process and the database it talks to, as seen from the load driver. */
export interface ObservedSide {
  side: 'service' | 'minimal';
  probe(): Promise<ProbeSnapshot>;
  profile?(command: 'start' | 'stop', file?: string): Promise<void>;
  db: DatabaseCpu;
}

export interface Costs {
  /** SQL statements the process sent per operation, all connections, background jobs included. */
  statements_per_op: number;
  statements_by_verb_per_op: Record<string, number>;
  /** With BENCH_SQL_TEXT=1: the statements behind those numbers, by shape. */
  statements_by_text_per_op?: Record<string, number>;
  /** CPU of the process (all threads) per operation. */
  cpu_ms_per_op: number;
  /** Of which in the kernel (system time): mostly the socket round trips to PostgreSQL and Redis. */
  system_cpu_ms_per_op: number;
  /** CPU of its PostgreSQL backends per operation; null when the database runs inside the process. */
  pg_cpu_ms_per_op: number | null;
  rss_mb_after: number;
}

const round = (x: number, digits = 2) => +x.toFixed(digits);

/** Runs a measured figure between two snapshots of the process and its database backends, profiled when asked. */
export async function observe(
  side: ObservedSide,
  run: () => Promise<Figure>,
  profileFile?: string,
): Promise<Figure & Costs> {
  const before = await side.probe();
  const dbBefore = await side.db.sample(side.side);
  if (profileFile) await side.profile?.('start');
  const figure = await run();
  if (profileFile) await side.profile?.('stop', profileFile);
  const after = await side.probe();
  const dbAfter = await side.db.sample(side.side);
  const n = figure.operations;
  const byVerb: Record<string, number> = {};
  for (const [verb, count] of Object.entries(after.byVerb)) {
    const delta = count - (before.byVerb[verb] ?? 0);
    if (delta) byVerb[verb] = round(delta / n);
  }
  const byText: Record<string, number> = {};
  for (const [text, count] of Object.entries(after.byText)) {
    const delta = count - (before.byText[text] ?? 0);
    if (delta / n >= 0.05) byText[text] = round(delta / n);
  }
  const pgMs = DatabaseCpu.deltaMs(dbBefore, dbAfter);
  return {
    ...figure,
    statements_per_op: round((after.statements - before.statements) / n),
    statements_by_verb_per_op: byVerb,
    ...(Object.keys(byText).length ? { statements_by_text_per_op: byText } : {}),
    cpu_ms_per_op: round((after.cpuMicros - before.cpuMicros) / 1000 / n),
    system_cpu_ms_per_op: round((after.systemCpuMicros - before.systemCpuMicros) / 1000 / n),
    pg_cpu_ms_per_op: pgMs === undefined ? null : round(pgMs / n),
    rss_mb_after: Math.round(after.rssBytes / 2 ** 20),
  };
}
