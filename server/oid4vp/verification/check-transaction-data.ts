import { createHash } from 'node:crypto';
import { check, reject } from './presentation-error.js';
import type { Checks, VerifiedCredential } from './types.js';

/** Hash algorithms a holder may use (IANA "Named Information Hash Algorithm" names); sha-256 is the default. */
const NODE_HASHES: Record<string, string> = { 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

interface Entry {
  raw: string;
  credentialIds: string[];
  algs: string[];
}

function readEntry(raw: string): Entry {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return reject('malformed', 'the session’s transaction_data is not base64url JSON');
  }
  const entry = decoded as { credential_ids?: unknown; transaction_data_hashes_alg?: unknown };
  const ids = Array.isArray(entry.credential_ids) ? entry.credential_ids.map(String) : [];
  const algs = Array.isArray(entry.transaction_data_hashes_alg)
    ? entry.transaction_data_hashes_alg.map(String)
    : ['sha-256'];
  return { raw, credentialIds: ids, algs };
}

/**
 * OpenID4VP 1.0 §8.4 and B.3.3: every transaction data entry the request carried is authorized by one
 * of the presentations answering a credential query it names, whose holder signed its hash (over the
 * base64url string as sent) with one of the entry's algorithms. Nothing is released otherwise:
 * `transaction_data_missing` when no such presentation signed hashes at all,
 * `transaction_data_mismatch` when the hashes it signed are not this entry's.
 */
export function checkTransactionData(credentials: readonly VerifiedCredential[], checks: Checks): void {
  for (const entry of checks.transactionData.map(readEntry)) {
    const candidates = credentials.filter((c) => entry.credentialIds.includes(c.queryId));
    const signed = candidates.filter((c) => c.transactionDataHashes);
    check(
      signed.length > 0,
      'transaction_data_missing',
      `no presentation for ${entry.credentialIds.join(' or ')} carries transaction_data_hashes under the holder's signature`,
    );
    const covered = signed.some((c) => {
      const { hashes, alg = 'sha-256' } = c.transactionDataHashes ?? { hashes: [] };
      const nodeAlg = NODE_HASHES[alg];
      if (!nodeAlg || !entry.algs.includes(alg)) return false;
      return hashes.includes(createHash(nodeAlg).update(entry.raw).digest('base64url'));
    });
    check(
      covered,
      'transaction_data_mismatch',
      'the transaction_data_hashes the holder signed are not those of the transaction data this verifier sent',
    );
  }
}
