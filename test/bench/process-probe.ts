import pg from 'pg';

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
  /** User + system CPU of this process, all threads, in microseconds. */
  cpuMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Where this process's `pg` clients connect (the embedded server's address is learnt this way). */
  databases: { host: string; port: number; user: string; database: string; password?: string }[];
}

const byVerb: Record<string, number> = {};
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
    cpuMicros: cpu.user + cpu.system,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
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
