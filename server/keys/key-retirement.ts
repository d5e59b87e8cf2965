import { conflict } from '../domain-errors.js';
import type { Orm } from '../persistence/orm.js';
import { recordKeyEvent } from './key-events.js';
import type { KeyVaults } from './key-vault.js';
import { materialOf } from './material-of.js';
import { changeSigningKey } from './signing-key-table.js';
import { vaultOf } from './vault-of.js';

/**
 * Takes a retiring key out of service: no longer published, no longer used to sign. Its private
 * part stays until it is destroyed. The active key is never retired (rotate first: a purpose
 * always has one).
 */
export const retireSigningKey = (orm: Orm, kid: string, actor: string) =>
  changeSigningKey(orm, kid, async (row, tx) => {
    if (row.status === 'active')
      throw conflict(`signing key ${kid} is active: rotate the ${row.purpose} key first`);
    if (row.status === 'retired') throw conflict(`signing key ${kid} is already retired`);
    row.status = 'retired';
    row.retiredAt = new Date();
    await recordKeyEvent(tx, { kid, purpose: row.purpose, actor, action: 'key.retired' });
  });

/**
 * Destroys a retired key's private part for good: C_DestroyObject in the token, or the sealed
 * ciphertext wiped for a software key. The row stays (public key, chain, dates) for the record.
 */
export const destroySigningKey = (orm: Orm, vaults: KeyVaults, kid: string, actor: string) =>
  changeSigningKey(orm, kid, async (row, tx) => {
    if (row.status !== 'retired') throw conflict(`signing key ${kid} is ${row.status}: retire it first`);
    if (row.destroyedAt) throw conflict(`signing key ${kid} is already destroyed`);
    await vaultOf(vaults, row.keyStore, `signing key ${kid}`).destroy(kid, materialOf(row));
    row.privateKeyEnc = null;
    row.destroyedAt = new Date();
    await recordKeyEvent(tx, {
      kid,
      purpose: row.purpose,
      actor,
      action: 'key.destroyed',
      details: { key_store: row.keyStore, ...(row.tokenKey ? { token_key: row.tokenKey } : {}) },
    });
  });
