import type { Logger } from 'pino';
import type { Signer } from '../../server/keys/signer.js';
import type { Orm } from '../../server/persistence/orm.js';
import { publishLatestStatusList } from '../../server/status-list/publish-status-list.js';
import { Poller } from '../poller.js';

/** How often a worker node looks for lists with pending changes: the floor of a change's publishing lag. */
export const STATUS_LIST_WATCH_INTERVAL_MS = 100;
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * On worker nodes, in both job modes: every 100 ms, one indexed look for lists with pending status
 * changes (appended by revocations on any node, set-credential-status.ts), and a publisher for each
 * such list that this node is not already publishing. Requests do not ask for publishing: an outbox
 * row per change would make every commit NOTIFY, which PostgreSQL serialises.
 *
 * A publisher keeps folding while changes keep coming (a build every 250 ms at most, see
 * publish-status-list.ts) and then stops; it runs beside the look, so a busy list does not hold up
 * the others. Several nodes share the work: each list is built by whichever holds its token row.
 */
export function scheduleStatusListPublishing(
  orm: Orm,
  context: { signer: Signer; issuerUrl: string; logger: Logger },
  intervalMs = STATUS_LIST_WATCH_INTERVAL_MS,
): () => Promise<void> {
  const { logger } = context;
  const publishing = new Map<string, Promise<void>>();
  // A list whose publishing failed is left alone for a while: one warning per retry, not ten a second.
  const retryAt = new Map<string, number>();
  const publish = (listId: string) =>
    publishLatestStatusList(orm.em.fork(), context.signer, context.issuerUrl, listId).then(
      (builds) => {
        retryAt.delete(listId);
        if (builds > 0) logger.debug({ statusList: listId, builds }, 'status list published');
      },
      (err) => {
        retryAt.set(listId, Date.now() + RETRY_AFTER_FAILURE_MS);
        logger.warn({ err, statusList: listId }, 'publishing a status list failed; retrying in 5 s');
      },
    );

  const poller = new Poller(
    async () => {
      const pending = await orm.em
        .fork()
        .execute<{ list_id: string }[]>('select distinct list_id from status_list_change');
      for (const { list_id: listId } of pending) {
        if (publishing.has(listId) || (retryAt.get(listId) ?? 0) > Date.now()) continue;
        publishing.set(
          listId,
          publish(listId).finally(() => publishing.delete(listId)),
        );
      }
    },
    intervalMs,
    (err) => logger.warn({ err }, 'looking for status list changes failed; retrying at the next look'),
  );
  poller.start();
  return async () => {
    await poller.stop();
    await Promise.all(publishing.values());
  };
}
