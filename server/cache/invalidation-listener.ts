import pg from 'pg';
import type { Logger } from 'pino';
import type { Orm } from '../persistence/orm.js';
import { attachNodeCaches, INVALIDATION_CHANNEL, type NodeCaches } from './node-caches.js';

const RETRY_MS = [250, 1_000, 5_000, 15_000];

export interface RunningInvalidation {
  node: NodeCaches;
  stop(): Promise<void>;
}

/**
 * Starts this node's caches and keeps a connection LISTENing for the changes other nodes (and this
 * one) commit, the way the outbox listener does. Caches are used only while that connection is up:
 * when it drops, everything cached is dropped too (a change may go unheard meanwhile), reads go to
 * the database, and the connection is re-established in the background.
 */
export async function startCacheInvalidation(
  orm: Orm,
  url: string,
  logger: Logger,
): Promise<RunningInvalidation> {
  const node = attachNodeCaches(orm);
  let stopped = false;
  let client: pg.Client | undefined;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const lost = (reason: string) => {
    if (stopped) return;
    if (node.listening)
      logger.warn({ reason }, 'cache invalidation connection lost; caches off until it is back');
    node.listening = false;
    node.invalidateAll();
    client?.removeAllListeners();
    client?.end().catch(() => undefined);
    client = undefined;
    retry ??= setTimeout(
      () => {
        retry = undefined;
        void connect();
      },
      RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)],
    );
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, application_name: 'credservice-cache' });
    client = c;
    c.on('error', (err) => lost(err.message));
    c.on('end', () => lost('connection ended'));
    c.on('notification', (n) => {
      const [topic = '', key = '*'] = (n.payload ?? '').split(' ');
      node.invalidateLocal(topic, key === '*' ? undefined : key);
    });
    try {
      await c.connect();
      await c.query(`listen ${INVALIDATION_CHANNEL}`);
      if (stopped || client !== c) return;
      // Anything cached before this point may have changed unheard.
      node.invalidateAll();
      node.listening = true;
      attempt = 0;
    } catch (err) {
      lost((err as Error).message);
    }
  };

  await connect();
  if (!node.listening) logger.warn('cannot LISTEN for cache invalidations; caches stay off until it can');
  return {
    node,
    async stop() {
      stopped = true;
      node.listening = false;
      node.invalidateAll(false);
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
