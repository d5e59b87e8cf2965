import { publishLatestStatusList } from '../../server/status-list/publish-status-list.js';
import type { Processor } from '../job-context.js';

/**
 * Rebuilds, signs and stores the token of one list. Every status change and every scheduled renewal
 * records one such job; jobs for the same list coalesce: a job finding the stored token already of
 * the list's latest version (or another job building it) does nothing, so a burst of revocations
 * costs a few builds. Idempotent: running a job twice builds at most once.
 */
export const publishStatusListProcessor: Processor = async ({ listId }, { em, signer, config, logger }) => {
  if (!listId) throw new Error('status-list job without listId');
  const builds = await publishLatestStatusList(em, signer, config.issuerUrl, listId);
  if (builds > 0) logger.info({ statusList: listId, builds }, 'status list published');
};
