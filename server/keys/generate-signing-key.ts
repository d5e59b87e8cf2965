import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidate } from '../cache/node-caches.js';
import { ecJwkThumbprint } from './es256-jws.js';
import type { KeyCertificates } from './key-certificates.js';
import { recordKeyEvent } from './key-events.js';
import type { KeyVault } from './key-vault.js';
import { type KeyPurpose, SigningKey } from './signing-key.entity.js';
import { KEYS_CHANGED } from './signing-key-table.js';

/**
 * A new active key for `purpose`, made in `vault` (inside the token with KEY_STORE=pkcs11), with a
 * development leaf, stored and recorded in the caller's transaction, which holds the purpose's lock.
 * The kid is the RFC 7638 thumbprint of its public key.
 */
export async function generateSigningKey(
  tx: EntityManager,
  vault: KeyVault,
  certificates: KeyCertificates,
  purpose: KeyPurpose,
  actor: string,
): Promise<SigningKey> {
  const generated = await vault.generate(`credservice ${purpose} ${new Date().toISOString()}`);
  const kid = ecJwkThumbprint(generated.publicJwk);
  const material = generated.material(kid);
  const chain = await certificates.developmentChain(purpose, generated.publicJwk);
  const row = tx.create(SigningKey, {
    ...chain,
    ...material,
    kid,
    purpose,
    publicJwk: generated.publicJwk,
    alg: 'ES256',
    status: 'active',
    retiredAt: null,
    destroyedAt: null,
  });
  await tx.flush();
  await recordKeyEvent(tx, {
    kid,
    purpose,
    actor,
    action: 'key.generated',
    details: { key_store: vault.kind, ...(material.tokenKey ? { token_key: material.tokenKey } : {}) },
  });
  await invalidate(tx, KEYS_CHANGED);
  return row;
}
