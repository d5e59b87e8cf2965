import fs from 'node:fs';
import pg from 'pg';

/** application_name of the minimal pipeline's connections, so its backends are told apart. */
export const MINIMAL_APPLICATION = 'bench-minimal';
const MONITOR_APPLICATION = 'bench-monitor';

/** CPU time of one process in nanoseconds: schedstat is exact, stat (10 ms ticks) the fallback. */
function processCpuNs(pid: number): number | undefined {
  try {
    const sched = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8');
    return Number(sched.split(' ')[0]);
  } catch {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10_000_000;
    } catch {
      return undefined;
    }
  }
}

/** Whether `pid` is a PostgreSQL backend on this machine (PGlite's pids are not processes). */
const isPostgres = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
};

/**
 * CPU spent by the PostgreSQL backends serving one side of the benchmark (the service, or the
 * minimal pipeline), read from /proc between two snapshots. A backend that exits between them is
 * lost, one that starts counts from its start; with a warm pool both are rare. Server-wide
 * processes (WAL writer, checkpointer, autovacuum) are not counted.
 */
export class DatabaseCpu {
  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async connect(url: string): Promise<DatabaseCpu> {
    const client = new pg.Client({ connectionString: url, application_name: MONITOR_APPLICATION });
    await client.connect();
    return new DatabaseCpu(client, new URL(url).pathname.slice(1));
  }

  /** Backend pid to CPU ns, for the service's backends or the minimal pipeline's. */
  async sample(side: 'service' | 'minimal'): Promise<Map<number, number> | undefined> {
    const { rows } = await this.client.query<{ pid: number; application_name: string }>(
      'select pid, application_name from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [this.database],
    );
    const pids = rows
      .filter((r) => (r.application_name === MINIMAL_APPLICATION) === (side === 'minimal'))
      .filter((r) => r.application_name !== MONITOR_APPLICATION)
      .map((r) => r.pid);
    if (pids.length && !pids.some(isPostgres)) return undefined;
    const sample = new Map<number, number>();
    for (const pid of pids) {
      const ns = processCpuNs(pid);
      if (ns !== undefined) sample.set(pid, ns);
    }
    return sample;
  }

  /** Milliseconds of backend CPU between two samples; undefined when the database is in-process. */
  static deltaMs(before: Map<number, number> | undefined, after: Map<number, number> | undefined) {
    if (!before || !after) return undefined;
    let ns = 0;
    for (const [pid, end] of after) ns += end - (before.get(pid) ?? 0);
    return ns / 1e6;
  }

  async close() {
    await this.client.end();
  }
}
