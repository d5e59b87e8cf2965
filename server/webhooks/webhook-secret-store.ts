import { DEVELOPMENT_KEY_ENCRYPTION_KEY, KeyEncryption } from '../keys/key-encryption.js';

/**
 * Webhook secrets are symmetric (the receiver checks the HMAC with the same key), so they are kept
 * sealed with KEY_ENCRYPTION_KEY like signing keys, bound to their endpoint: a sealed secret copied
 * onto another endpoint's row does not open.
 */
const sealings = new Map<string, KeyEncryption>();

function sealingFor(keyEncryptionKey: string | undefined): KeyEncryption {
  const secret = keyEncryptionKey ?? DEVELOPMENT_KEY_ENCRYPTION_KEY;
  let sealing = sealings.get(secret);
  if (!sealing) {
    // scrypt is slow by design: derive once per process, not per delivery.
    sealing = new KeyEncryption(secret);
    sealings.set(secret, sealing);
  }
  return sealing;
}

const aad = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export const sealWebhookSecret = (kek: string | undefined, endpointId: string, secret: string) =>
  sealingFor(kek).seal(Buffer.from(secret, 'utf8'), aad(endpointId));

export const openWebhookSecret = (kek: string | undefined, endpointId: string, sealed: string) =>
  sealingFor(kek).open(sealed, aad(endpointId)).toString('utf8');
