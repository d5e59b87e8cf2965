import pg from 'pg';

/** Per table: its row count and a checksum over every row, independent of row order. */
export type Snapshot = Map<string, { rows: number; checksum: string }>;

export async function snapshot(databaseUrl: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    );
    const result: Snapshot = new Map();
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ rows: number; checksum: string | null }>(
        `select count(*)::int as rows, md5(string_agg(md5(t::text), '' order by md5(t::text))) as checksum
         from "${name}" t`,
      );
      result.set(name, { rows: rows[0]?.rows ?? 0, checksum: rows[0]?.checksum ?? '' });
    }
    return result;
  } finally {
    await client.end();
  }
}

/** Tables whose count or checksum differs, with both counts. */
export function changedTables(before: Snapshot, after: Snapshot) {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter(
      (n) => before.get(n)?.checksum !== after.get(n)?.checksum || before.get(n)?.rows !== after.get(n)?.rows,
    )
    .map((n) => ({ table: n, before: before.get(n)?.rows ?? -1, after: after.get(n)?.rows ?? -1 }));
}
