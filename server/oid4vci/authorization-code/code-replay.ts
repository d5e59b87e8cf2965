import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../../audit/audit-log.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { Issuance } from '../../issuance/issuance.entity.js';
import { AUTHORIZATION_CODE_TTL_SECONDS, keys, readRecord, takenKey } from './pending-authorization.js';

/**
 * How long a redeemed code is remembered: a replay within a day still ends the refresh grant the code
 * gave (its access token lives five minutes); later, a replayed code is merely unknown.
 */
const REDEEMED_CODE_TTL_SECONDS = 86_400;

interface RedeemedCode {
  issuanceId: string;
}

/**
 * RFC 6749 section 4.1.2: a code used twice was seen by someone else, so everything its first use
 * gave is revoked: the issuance's access tokens and its
 * refresh family (whose refresh and access tokens go with it). The credentials already issued stay:
 * they are bound to the holder key that proved possession, and the tokens are what the code gave.
 */
async function revokeGrantOf(em: EntityManager, issuanceId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const issuance = await tx.findOne(Issuance, { id: issuanceId }, { fields: ['tenantId'] });
    if (!issuance) return;
    await tx.execute('delete from oid4vci_refresh_family where issuance_id = ?', [issuanceId]);
    await tx.execute('delete from oid4vci_access_token where issuance_id = ?', [issuanceId]);
    await appendAuditEvent(tx, {
      tenantId: issuance.tenantId,
      actor: 'wallet',
      action: 'authorization_code.replayed',
      subject: issuanceId,
      details: {},
    });
  });
}

/**
 * After a code's first use has given its tokens: remembered, so that a replay can revoke them. A
 * replay that came while this use was still in flight left a flag, read here after the record is
 * written (and the replay reads the record after writing its flag), so one of the two revokes.
 */
export async function rememberRedeemedCode(
  em: EntityManager,
  store: TtlStore,
  code: string,
  issuanceId: string,
): Promise<void> {
  const record: RedeemedCode = { issuanceId };
  await store.set(keys.redeemed(code), JSON.stringify(record), REDEEMED_CODE_TTL_SECONDS);
  if (await store.get(keys.replayed(code))) await revokeGrantOf(em, issuanceId);
}

/**
 * A code that was presented again. Unknown codes write nothing (anonymous requests leave nothing
 * behind); a code taken by a use still in flight gets the flag that use reads when it is done.
 */
export async function revokeReplayedCode(em: EntityManager, store: TtlStore, code: string): Promise<void> {
  const redeemed = await readRecord<RedeemedCode>(store, keys.redeemed(code));
  if (redeemed) return revokeGrantOf(em, redeemed.issuanceId);
  if (!(await store.get(takenKey(keys.code(code))))) return;
  await store.set(keys.replayed(code), '1', AUTHORIZATION_CODE_TTL_SECONDS);
  const now = await readRecord<RedeemedCode>(store, keys.redeemed(code));
  if (now) await revokeGrantOf(em, now.issuanceId);
}
