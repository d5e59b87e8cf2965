import type { TransactionData, TransactionDataObject } from './transaction-data.js';

/**
 * The service's approvals as transaction data: the End-User approves `subject` (a purchase order,
 * say) by presenting a credential whose KB-JWT signs the hash of the request's string. As this
 * wallet reads the type: `subject` and `description` are required non-empty strings, `amount` an
 * optional `{ value: decimal string, currency: ISO 4217 code }`. Further members are allowed (the
 * type is open to additions) and, as they are signed too, shown by describeTransactionData.
 */
export const APPROVAL_TYPE = 'urn:credservice:approval:1';

export interface ApprovalTransactionData extends TransactionDataObject {
  type: typeof APPROVAL_TYPE;
  subject: string;
  description: string;
  amount?: { value: string; currency: string };
}

export const isApproval = (data: TransactionDataObject): data is ApprovalTransactionData =>
  data.type === APPROVAL_TYPE;

const isText = (v: unknown) => typeof v === 'string' && v.trim().length > 0;

/** Why `data` does not conform to urn:credservice:approval:1, or undefined when it does. */
export function checkApproval(data: TransactionDataObject): string | undefined {
  if (!isText(data.subject)) return 'has no subject';
  if (!isText(data.description)) return 'has no description';
  if (data.amount === undefined) return undefined;
  const amount = data.amount as Record<string, unknown> | null;
  if (!amount || typeof amount !== 'object' || Array.isArray(amount))
    return 'has an amount that is no object';
  if (Object.keys(amount).some((k) => k !== 'value' && k !== 'currency'))
    return 'has an amount with members other than value and currency';
  // A string, not a number, so that no float rounding changes what the End-User approves.
  if (typeof amount.value !== 'string' || !/^\d+(\.\d+)?$/.test(amount.value))
    return 'has an amount value that is not a decimal string';
  if (typeof amount.currency !== 'string' || !/^[A-Z]{3}$/.test(amount.currency))
    return 'has an amount currency that is not an ISO 4217 code';
  return undefined;
}

/** The transaction data types this wallet knows, each with what checks conformance to it. */
export const KNOWN_TRANSACTION_DATA_TYPES: ReadonlyMap<
  string,
  (data: TransactionDataObject) => string | undefined
> = new Map([[APPROVAL_TYPE, checkApproval]]);

/** What a holder shows for one entry before approving it. */
export interface TransactionDataSummary {
  type: string;
  credential_ids: string[];
  subject?: string;
  description?: string;
  /** `12400.00 EUR`. */
  amount?: string;
  /** The members not named above: all of an unknown type's own, any additions to an approval. */
  other?: Record<string, unknown>;
}

const COMMON = ['type', 'credential_ids', 'transaction_data_hashes_alg'];
const APPROVAL_MEMBERS = [...COMMON, 'subject', 'description', 'amount'];

/** A transaction data entry as a holder shows it: an approval's fields, or another type's members. */
export function describeTransactionData({ data }: TransactionData): TransactionDataSummary {
  const named = isApproval(data) ? APPROVAL_MEMBERS : COMMON;
  const other = Object.fromEntries(Object.entries(data).filter(([k]) => !named.includes(k)));
  return {
    type: data.type,
    credential_ids: data.credential_ids,
    ...(isApproval(data)
      ? {
          subject: data.subject,
          description: data.description,
          ...(data.amount ? { amount: `${data.amount.value} ${data.amount.currency}` } : {}),
        }
      : {}),
    ...(Object.keys(other).length ? { other } : {}),
  };
}
