import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Kicks the relay when any node commits an outbox message (PostgreSQL NOTIFY, sent at commit).
 * Best effort: if the listening connection drops, polling still finds every message.
 */
export async function listenForOutbox(
  url: string,
  kick: () => void,
  logger: Logger,
): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (err) => logger.warn({ err: err.message }, 'outbox listener lost; relying on polling'));
  client.on('notification', () => kick());
  try {
    await client.connect();
    await client.query('listen outbox_message');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'cannot LISTEN for outbox messages; relying on polling');
  }
  return async () => {
    await client.end().catch(() => undefined);
  };
}
