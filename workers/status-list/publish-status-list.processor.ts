import { openNextList } from '../../server/status-list/allocate-status-entry.js';
import { publishLatestStatusList } from '../../server/status-list/publish-status-list.js';
import type { Processor } from '../job-context.js';

/**
 * Rebuilds, signs and stores the token of one list. Every status change and every scheduled renewal
 * records one such job; jobs for the same list coalesce: a job finding nothing pending (or another
 * job building) does nothing, so a burst of revocations costs a few builds. Idempotent: running a
 * job twice builds at most once. A job with `openNext` (recorded half-way through a list) opens the
 * following list instead, so that no issuance has to.
 */
export const publishStatusListProcessor: Processor = async (
  { listId, openNext },
  { em, signer, config, logger },
) => {
  if (!listId) throw new Error('status-list job without listId');
  if (openNext) return openNextList(em, listId, Number(openNext));
  const builds = await publishLatestStatusList(em, signer, config.issuerUrl, listId);
  if (builds > 0) logger.info({ statusList: listId, builds }, 'status list published');
};
