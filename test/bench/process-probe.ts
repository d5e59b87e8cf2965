import v8 from 'node:v8';
import pg from 'pg';
import './window-profiler.js';

/**
 * Loaded with `--import` into a benchmarked process (the service, the minimal pipeline). It counts
 * every SQL statement the process sends through `pg` (MikroORM, kysely, the LISTEN connection and
 * raw queries all end in `Client.prototype.query`), so statements per operation are exact rather
 * than inferred from server-wide counters. The bench asks over the IPC channel for a snapshot.
 */
export interface ProbeSnapshot {
  statements: number;
  /** Statements by their first word (select, insert, update, delete, begin, commit, …). */
  byVerb: Record<string, number>;
  /** With BENCH_SQL_TEXT=1: statements by their text, values and long tails cut (at most 300 texts). */
  byText: Record<string, number>;
  /** User + system CPU of this process, all threads, in microseconds. */
  cpuMicros: number;
  /** The system (kernel) part of it: socket writes and reads, polling. */
  systemCpuMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** What V8 holds for its heap, used or not. */
  heapTotalBytes: number;
  /** Memory of Buffers and other objects outside the V8 heap. */
  externalBytes: number;
  /** V8's heap by space (new, old, code, large objects…): bytes resident of each. */
  heapSpacesPhysicalBytes: Record<string, number>;
  /** Where this process's `pg` clients connect (the embedded server's address is learnt this way). */
  databases: { host: string; port: number; user: string; database: string; password?: string }[];
}

const byVerb: Record<string, number> = {};
const byText: Record<string, number> = {};
const recordText = process.env.BENCH_SQL_TEXT === '1';
/** The statement's shape: inlined literals and numbers elided, so one kind of statement is one entry. */
const shape = (text: string) =>
  text
    .replace(/'(?:[^']|'')*'/g, "'…'")
    .replace(/\b\d+\b/g, 'N')
    .replace(/\s+/g, ' ')
    .slice(0, 140);
let statements = 0;
const databases = new Map<string, ProbeSnapshot['databases'][number]>();

type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
const query = pg.Client.prototype.query as unknown as QueryFn;
(pg.Client.prototype as unknown as { query: QueryFn }).query = function (this: pg.Client, ...args) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  if (typeof text === 'string') {
    statements++;
    const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?';
    byVerb[verb] = (byVerb[verb] ?? 0) + 1;
    if (recordText) {
      const key = shape(text);
      if (key in byText || Object.keys(byText).length < 300) byText[key] = (byText[key] ?? 0) + 1;
    }
  }
  const c = this as unknown as {
    host: string;
    port: number;
    user: string;
    database: string;
    password?: string;
  };
  const key = `${c.host}:${c.port}/${c.database}`;
  if (!databases.has(key)) {
    const { host, port, user, database, password } = c;
    databases.set(key, { host, port, user, database, ...(typeof password === 'string' ? { password } : {}) });
  }
  return query.apply(this, args);
};

export function snapshot(): ProbeSnapshot {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return {
    statements,
    byVerb: { ...byVerb },
    byText: { ...byText },
    cpuMicros: cpu.user + cpu.system,
    systemCpuMicros: cpu.system,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    heapTotalBytes: memory.heapTotal,
    externalBytes: memory.external,
    heapSpacesPhysicalBytes: Object.fromEntries(
      v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.physical_space_size]),
    ),
    databases: [...databases.values()],
  };
}

if (process.send) {
  process.on('message', (message: unknown) => {
    if (message === 'probe') process.send?.({ probe: snapshot() });
  });
  // The channel must not keep a process alive that would otherwise exit.
  process.channel?.unref();
}
