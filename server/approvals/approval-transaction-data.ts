import type { z } from 'zod';
import { APPROVAL_TRANSACTION_TYPE, type ApprovalTransaction } from '../../contract/approvals/approval.js';
import { validationError } from '../domain-errors.js';

/** An encoded transaction data entry may not exceed this (the request object carries it whole). */
const MAX_ENTRY_BYTES = 4096;
/** The members the built-in approval type defines; any other is refused, as the wallet would. */
const APPROVAL_MEMBERS = new Set(['type', 'subject', 'description', 'amount']);

/**
 * The transaction data entry (OpenID4VP 1.0 §5.1) of an approval: a base64url JSON object of its
 * type, the credential query that may authorize it, the hash algorithm the holder is to use, and the
 * transaction's own members. Only the built-in type is known: an unknown type, a member the type does
 * not define, or an entry over 4 KiB is a 400 at creation (a wallet would refuse it anyway, with
 * `invalid_transaction_data`).
 */
export function approvalTransactionData(
  transaction: z.infer<typeof ApprovalTransaction>,
  credentialQueryId: string,
): string {
  if (transaction.type !== APPROVAL_TRANSACTION_TYPE)
    throw validationError([
      {
        field: 'transaction.type',
        message: `unknown transaction data type; known: ${APPROVAL_TRANSACTION_TYPE}`,
      },
    ]);
  const unknown = Object.keys(transaction).filter((k) => !APPROVAL_MEMBERS.has(k));
  if (unknown.length)
    throw validationError(
      unknown.map((k) => ({
        field: `transaction.${k}`,
        message: `not a member of ${APPROVAL_TRANSACTION_TYPE}`,
      })),
    );
  const entry = {
    ...transaction,
    credential_ids: [credentialQueryId],
    transaction_data_hashes_alg: ['sha-256'],
  };
  const encoded = Buffer.from(JSON.stringify(entry)).toString('base64url');
  if (encoded.length > MAX_ENTRY_BYTES)
    throw validationError([
      { field: 'transaction', message: `larger than ${MAX_ENTRY_BYTES} bytes encoded` },
    ]);
  return encoded;
}
