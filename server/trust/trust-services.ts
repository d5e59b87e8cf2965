import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { outboundPolicy } from '../outbound/outbound-policy.js';
import type { FetchDeps, ListReaders } from './fetch-trust-list.js';
import { tenantTrust } from './tenant-trust.js';
import type { Trust } from './trust.js';
import type { TrustListSettings } from './trust-list-settings.js';

/** What deciding and refreshing trust is given at start: the settings, the outbound client, the readers. */
export interface TrustServices {
  settings: TrustListSettings;
  fetch: FetchDeps;
  logger: Logger;
  /** The tenant's trust: anchors and the certificates its sources list while they vouch. */
  of(em: EntityManager, tenantId: string): Promise<Trust>;
}

export function trustServices(config: Config, logger: Logger, readers: ListReaders): TrustServices {
  return {
    settings: config,
    fetch: { policy: outboundPolicy(config), readers, timeoutMs: config.TRUST_LIST_TIMEOUT_MS },
    logger,
    of: (em, tenantId) => tenantTrust(em, tenantId, config.TRUST_LIST_GRACE_SECONDS),
  };
}
