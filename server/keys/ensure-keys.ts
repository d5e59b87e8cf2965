import type { Logger } from 'pino';
import { invalidate } from '../cache/node-caches.js';
import type { Orm } from '../persistence/orm.js';
import { generateSigningKey } from './generate-signing-key.js';
import { DEVELOPMENT_CERTIFICATES_WARNING, type KeyCertificates } from './key-certificates.js';
import type { KeyRing } from './key-ring.js';
import type { KeyStoreKind, KeyVaults } from './key-vault.js';
import { materialOf } from './material-of.js';
import { KEY_PURPOSES, SigningKey } from './signing-key.entity.js';
import { KEYS_CHANGED, lockPurpose } from './signing-key-table.js';
import { vaultOf } from './vault-of.js';

/**
 * At start, per purpose under its lock: an active key (made in the configured vault when there is
 * none), every current key checked where its row says it is (a missing key, or one that is not
 * P-256, stops the start with the reason), and development chains renewed where needed.
 */
export async function ensurePurposeKeys(orm: Orm, vaults: KeyVaults, certificates: KeyCertificates) {
  for (const purpose of KEY_PURPOSES) {
    await orm.em.fork().transactional(async (tx) => {
      await lockPurpose(tx, purpose);
      if (!(await tx.findOne(SigningKey, { purpose, status: 'active' })))
        await generateSigningKey(tx, vaults.configured, certificates, purpose, 'service');
      const current = await tx.find(SigningKey, { purpose, status: { $ne: 'retired' } });
      for (const row of current)
        await vaultOf(vaults, row.keyStore, `signing key ${row.kid}`).check(
          row.kid,
          materialOf(row),
          row.publicJwk,
        );
      if (await certificates.renewDevelopmentChains(current)) await invalidate(tx, KEYS_CHANGED);
    });
  }
}

/** Said once at start: development certificates in use, active keys outside the configured store. */
export function warnAtStart(
  logger: Pick<Logger, 'warn'> | undefined,
  ring: KeyRing,
  kind: KeyStoreKind,
  certificates: KeyCertificates,
): void {
  const development = KEY_PURPOSES.filter((p) => ring.active(p)?.certificateSource === 'development');
  const elsewhere = KEY_PURPOSES.filter((p) => ring.active(p)?.keyStore !== kind);
  if (development.length)
    logger?.warn(
      { purposes: development, root: certificates.ca.root.subject },
      DEVELOPMENT_CERTIFICATES_WARNING,
    );
  if (elsewhere.length)
    logger?.warn(
      { purposes: elsewhere, key_store: kind },
      `active keys are not in the configured key store (KEY_STORE=${kind}): move them with npm run cli -- keys rotate --all`,
    );
}
