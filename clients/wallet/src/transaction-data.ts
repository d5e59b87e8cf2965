import { base64url } from 'jose';
import { KNOWN_TRANSACTION_DATA_TYPES } from './approval-transaction-data.js';
import { WalletError } from './errors.js';

/** A `transaction_data` object (OID4VP §5.1) decoded: the common members typed, the type's own kept. */
export interface TransactionDataObject {
  type: string;
  /** The ids of the DCQL Credential Queries whose presentation may authorize it. */
  credential_ids: string[];
  /** The hash algorithms the verifier accepts for `transaction_data_hashes` (B.3.3); sha-256 when absent. */
  transaction_data_hashes_alg?: string[];
  [member: string]: unknown;
}

/** One entry of a request's `transaction_data`: something the End-User is asked to approve. */
export interface TransactionData {
  /** The string as the request carried it: what is hashed, never re-encoded (B.3.3). */
  encoded: string;
  /** Its position in the request's `transaction_data`. */
  index: number;
  /** The decoded object with every member, for a caller to show. */
  data: TransactionDataObject;
}

/** The request's transaction data cannot be processed: OID4VP §8.5 `invalid_transaction_data`. */
export class InvalidTransactionDataError extends WalletError {
  override name = 'InvalidTransactionDataError';
  readonly error = 'invalid_transaction_data';
  constructor(message: string) {
    super(`invalid_transaction_data: ${message}`);
  }
}

export interface TransactionDataOptions {
  /**
   * Types beyond KNOWN_TRANSACTION_DATA_TYPES that the caller accepts. The wallet cannot check what
   * it does not know, so it checks only their common members; the caller shows them whole.
   */
  transactionDataTypes?: string[];
}

/** The only hash algorithm this wallet computes; B.3.3 makes every implementation support it. */
export const TRANSACTION_DATA_HASH_ALG = 'sha-256';

/**
 * Reads a request's `transaction_data` (OID4VP §5.1): a non-empty array of base64url JSON objects,
 * each of a type this wallet knows (or the caller accepts) and conforming to it, naming in
 * `credential_ids` queries of the request's DCQL query. Since only the SD-JWT VC profile (B.3.3) is
 * implemented, a named query must be a key-bound dc+sd-jwt one and sha-256 an accepted hash.
 * Any failure is `invalid_transaction_data`; no transaction data gives an empty list.
 */
export function readTransactionData(
  value: unknown,
  dcqlQuery: unknown,
  opts: TransactionDataOptions = {},
): TransactionData[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0)
    throw new InvalidTransactionDataError('transaction_data is not a non-empty array');
  const queries = queriesOf(dcqlQuery);
  return value.map((encoded: unknown, index) => {
    const data = decodeEntry(encoded, index);
    const problem = findCommonProblem(data, queries) ?? findTypeProblem(data, opts);
    if (problem) throw new InvalidTransactionDataError(`transaction_data[${index}] ${problem}`);
    return { encoded: encoded as string, index, data };
  });
}

type QueryLike = { format?: unknown; require_cryptographic_holder_binding?: unknown };

/** The request's Credential Queries by id; malformed ones are for selectForDcql to refuse. */
function queriesOf(dcqlQuery: unknown): Map<string, QueryLike> {
  const list = (dcqlQuery as { credentials?: unknown } | undefined)?.credentials;
  const queries = new Map<string, QueryLike>();
  if (Array.isArray(list))
    for (const q of list) if (typeof q?.id === 'string') queries.set(q.id, q as QueryLike);
  return queries;
}

function decodeEntry(encoded: unknown, index: number): TransactionDataObject {
  if (typeof encoded !== 'string' || !/^[A-Za-z0-9_-]+$/.test(encoded))
    throw new InvalidTransactionDataError(`transaction_data[${index}] is not a base64url string`);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(encoded)));
  } catch {
    throw new InvalidTransactionDataError(`transaction_data[${index}] is not base64url-encoded JSON`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new InvalidTransactionDataError(`transaction_data[${index}] is not a JSON object`);
  return data as TransactionDataObject;
}

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s.length > 0);

/** The members every type has (§5.1) and what the SD-JWT VC profile (B.3.3) asks of them. */
function findCommonProblem(data: TransactionDataObject, queries: Map<string, QueryLike>) {
  if (typeof data.type !== 'string' || !data.type) return 'has no type';
  if (!isStringList(data.credential_ids)) return 'has no credential_ids';
  for (const id of data.credential_ids) {
    const query = queries.get(id);
    if (!query) return `names credential query ${id}, which the dcql_query does not have`;
    if (query.format !== 'dc+sd-jwt')
      return `names credential query ${id} of format ${String(query.format)}; only dc+sd-jwt is supported`;
    // B.3.3: transaction data is signed with the holder's key, so the query must bind one.
    if (query.require_cryptographic_holder_binding === false)
      return `names credential query ${id}, which does not require cryptographic holder binding`;
  }
  const algs = data.transaction_data_hashes_alg;
  if (algs !== undefined && !isStringList(algs)) return 'has a transaction_data_hashes_alg that is no list';
  if (algs && !algs.includes(TRANSACTION_DATA_HASH_ALG))
    return `accepts only ${algs.join(', ')} as hash, not ${TRANSACTION_DATA_HASH_ALG}`;
  return undefined;
}

function findTypeProblem(data: TransactionDataObject, opts: TransactionDataOptions) {
  const findProblem = KNOWN_TRANSACTION_DATA_TYPES.get(data.type);
  if (findProblem) return findProblem(data);
  if (opts.transactionDataTypes?.includes(data.type)) return undefined;
  return `is of type ${data.type}, which this wallet does not know`;
}
