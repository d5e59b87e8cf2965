import type { z } from 'zod';
import { APPROVAL_TRANSACTION_TYPE, type ApprovalTransaction } from '../../contract/approvals/approval.js';
import type { FieldError } from '../credential-configurations/payload-validator.js';
import { validationError } from '../domain-errors.js';

/** What a transaction data type allows: its members, and its size once encoded. */
export interface TransactionDataDefinition {
  /** Field errors (`transaction.<path>`) of a transaction of this type; empty when it conforms. */
  check(transaction: Record<string, unknown>): FieldError[];
  maxBytes: number;
}

/** The members the built-in approval type defines; any other is refused, as the wallet would. */
const APPROVAL_MEMBERS = new Set(['type', 'subject', 'description', 'amount']);

/** The built-in `urn:credservice:approval:1` (its members' shapes are the contract's ApprovalTransaction). */
export const BUILT_IN_APPROVAL: TransactionDataDefinition = {
  check: (transaction) =>
    Object.keys(transaction)
      .filter((k) => !APPROVAL_MEMBERS.has(k))
      .map((k) => ({ field: `transaction.${k}`, message: `not a member of ${APPROVAL_TRANSACTION_TYPE}` })),
  maxBytes: 4096,
};

/**
 * The transaction data entry (OpenID4VP 1.0 §5.1) of an approval: a base64url JSON object of its
 * type, the credential query that may authorize it, the hash algorithm the holder is to use, and the
 * transaction's own members. A member the type does not allow, or an entry over the type's size, is
 * a 400 at creation (a wallet would refuse it anyway, with `invalid_transaction_data`).
 */
export function approvalTransactionData(
  transaction: z.infer<typeof ApprovalTransaction>,
  credentialQueryId: string,
  definition: TransactionDataDefinition = BUILT_IN_APPROVAL,
): string {
  const errors = definition.check(transaction);
  if (errors.length) throw validationError(errors);
  const entry = {
    ...transaction,
    credential_ids: [credentialQueryId],
    transaction_data_hashes_alg: ['sha-256'],
  };
  const encoded = Buffer.from(JSON.stringify(entry)).toString('base64url');
  if (encoded.length > definition.maxBytes)
    throw validationError([
      { field: 'transaction', message: `larger than ${definition.maxBytes} bytes encoded` },
    ]);
  return encoded;
}

/** The built-in type's definition, or an error naming the known one (for callers without tenant types). */
export function builtInDefinition(type: string): TransactionDataDefinition {
  if (type !== APPROVAL_TRANSACTION_TYPE)
    throw validationError([
      {
        field: 'transaction.type',
        message: `unknown transaction data type; known: ${APPROVAL_TRANSACTION_TYPE}`,
      },
    ]);
  return BUILT_IN_APPROVAL;
}
