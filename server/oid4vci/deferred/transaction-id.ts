import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../tenants/token-secret.js';

/** Seconds a wallet is asked to wait between deferred credential requests (OID4VCI section 8.3 `interval`). */
export const DEFERRED_INTERVAL_SECONDS = 5;

/** How long an issuance waits for the integrator's decision before the wallet is denied. */
export const APPROVAL_WAIT_SECONDS = 7 * 24 * 3600;

/** A fresh transaction_id and the hash that is all the issuer keeps of it. */
export function newTransactionId(): { transactionId: string; hash: string } {
  const transactionId = randomBytes(32).toString('base64url');
  return { transactionId, hash: hashSecret(transactionId) };
}

/** The presented transaction_id against the stored hash, in constant time (both are SHA-256 hex). */
export function isTransactionId(presented: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The 202 body of the credential and deferred credential endpoints while the decision waits. */
export const pendingResponse = (transactionId: string) => ({
  status: 202 as const,
  body: { transaction_id: transactionId, interval: DEFERRED_INTERVAL_SECONDS },
});
