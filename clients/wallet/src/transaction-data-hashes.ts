import { createHash } from 'node:crypto';
import { base64url } from 'jose';
import { WalletError } from './errors.js';
import {
  InvalidTransactionDataError,
  TRANSACTION_DATA_HASH_ALG,
  type TransactionData,
} from './transaction-data.js';

/** The top-level KB-JWT claims that return transaction data (OID4VP B.3.3). */
export interface TransactionDataHashes {
  transaction_data_hashes: string[];
  /** Always sent, though B.3.3 requires it only when the request listed algorithms. */
  transaction_data_hashes_alg: string;
}

/**
 * The End-User's consent to sign transaction data: `true` approves whatever the request carries (the
 * caller has shown it), a function is asked with the entries (a consent dialog) and approves by
 * returning true. Absent or false, a request with transaction data is refused.
 */
export type ApproveTransactionData =
  | boolean
  | ((transactionData: TransactionData[]) => boolean | Promise<boolean>);

/**
 * The request carries transaction data the End-User did not approve. Nothing was sent to the
 * verifier, so the same request can be answered again once approved; `transactionData` is what
 * to show meanwhile.
 */
export class TransactionDataNotApprovedError extends WalletError {
  override name = 'TransactionDataNotApprovedError';
  constructor(readonly transactionData: TransactionData[]) {
    super(`the request asks to approve ${transactionData.length} transaction(s), which was not approved`);
  }
}

/** Throws TransactionDataNotApprovedError unless there is nothing to approve or `approve` approves. */
export async function requireApproval(transactionData: TransactionData[], approve?: ApproveTransactionData) {
  if (transactionData.length === 0) return;
  const approved = typeof approve === 'function' ? await approve(transactionData) : approve === true;
  if (approved !== true) throw new TransactionDataNotApprovedError(transactionData);
}

/** base64url(SHA-256) of the string as received: B.3.3 hashes it without base64url-decoding it. */
export const hashTransactionData = (encoded: string) =>
  base64url.encode(createHash('sha256').update(encoded, 'utf8').digest());

/**
 * Ways to return transaction data wrongly on purpose, so that tests can show a verifier rejects
 * each: `omit` leaves the claims out, `wrong` hashes the decoded JSON instead of the string.
 */
export type TransactionDataMisbehaviour = 'omit' | 'wrong';

/**
 * The KB-JWT claims of each presented query, keyed by query id: an entry's hash goes to the first
 * of its `credential_ids` that is presented (§5.1: only one of them authorizes it), a query's
 * hashes in the order of the request. An entry none of whose queries is presented cannot be
 * authorized: `invalid_transaction_data`.
 */
export function assignTransactionDataHashes(
  transactionData: TransactionData[],
  presentedQueryIds: string[],
  misbehave?: TransactionDataMisbehaviour,
): Record<string, TransactionDataHashes> {
  const hashOf = (t: TransactionData) =>
    misbehave === 'wrong'
      ? hashTransactionData(Buffer.from(t.encoded, 'base64url').toString('utf8'))
      : hashTransactionData(t.encoded);
  const byQuery: Record<string, TransactionDataHashes> = {};
  for (const t of transactionData) {
    const id = t.data.credential_ids.find((c) => presentedQueryIds.includes(c));
    if (id === undefined)
      throw new InvalidTransactionDataError(
        `transaction_data[${t.index}] names no credential query that is presented (${t.data.credential_ids.join(', ')})`,
      );
    byQuery[id] ??= { transaction_data_hashes: [], transaction_data_hashes_alg: TRANSACTION_DATA_HASH_ALG };
    byQuery[id].transaction_data_hashes.push(hashOf(t));
  }
  return misbehave === 'omit' ? {} : byQuery;
}
