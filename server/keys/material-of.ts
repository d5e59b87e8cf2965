import type { KeyMaterial } from './key-vault.js';
import type { SigningKey } from './signing-key.entity.js';

/** The columns of a key row that say where its private part is. */
export const materialOf = (
  row: Pick<SigningKey, 'keyStore' | 'privateKeyEnc' | 'tokenKey'>,
): KeyMaterial => ({
  keyStore: row.keyStore,
  privateKeyEnc: row.privateKeyEnc ?? null,
  tokenKey: row.tokenKey ?? null,
});
