import { type CallbackContext, HashAlgorithm } from '@openid4vc/oauth2';
import type { ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { decodeUtf8String, encodeToBase64Url } from '@openid4vc/utils';

/**
 * The third-party holder's side of OID4VP transaction data (§8.4, B.3.3) with what
 * @openid4vc/openid4vp offers a holder: its resolve parses `transaction_data` (parseTransactionData:
 * base64url JSON with `type`, a non-empty `credential_ids`, optional `transaction_data_hashes_alg`,
 * else `invalid_transaction_data`) into `resolved.transactionData`, each entry with the string as
 * received (`encoded`). It has no holder helper for the hashes, so they are computed here as its
 * verifier's verifyTransactionData recomputes them: the `hash` callback over the UTF-8 bytes of
 * `encoded`, base64url-encoded. Any type is signed once approved: this holder knows no type.
 */

/** `sign` as B.3.3 says; `omit` leaves the claims out, `wrong` hashes the decoded JSON instead. */
export type TransactionDataMode = 'sign' | 'omit' | 'wrong';

export interface TransactionDataHashClaims {
  transaction_data_hashes: string[];
  transaction_data_hashes_alg: string;
}

const SUPPORTED: string[] = Object.values(HashAlgorithm);

/**
 * The KB-JWT claims per presented query id: each entry's hash goes to the first of its
 * credential_ids that is presented (§5.1), hashed with the first algorithm it lists that the
 * library knows (sha-256 when it lists none). Refuses, as a careful wallet must, transaction data
 * that was not approved, that names a query the request lacks or that no presentation can carry.
 */
export async function transactionDataHashClaims(
  resolved: ResolvedOpenid4vpAuthorizationRequest,
  presentedQueryIds: string[],
  hash: CallbackContext['hash'],
  options: { approve?: boolean; mode?: TransactionDataMode } = {},
): Promise<Record<string, TransactionDataHashClaims>> {
  const entries = resolved.transactionData ?? [];
  if (entries.length === 0) return {};
  if (!options.approve) throw new Error('the request carries transaction_data, which was not approved');
  const queryIds = ((resolved.dcql?.query as { credentials?: { id: string }[] })?.credentials ?? []).map(
    (q) => q.id,
  );
  const claims: Record<string, TransactionDataHashClaims> = {};
  for (const { transactionData, encoded, transactionDataIndex } of entries) {
    const unknown = transactionData.credential_ids.find((id) => !queryIds.includes(id));
    if (unknown) throw new Error(`invalid_transaction_data: ${transactionDataIndex} names query ${unknown}`);
    const id = transactionData.credential_ids.find((c) => presentedQueryIds.includes(c));
    if (!id) throw new Error(`invalid_transaction_data: ${transactionDataIndex} names no presented query`);
    const alg = (transactionData.transaction_data_hashes_alg ?? ['sha-256']).find((a) =>
      SUPPORTED.includes(a),
    );
    if (!alg) throw new Error(`invalid_transaction_data: no supported hash for ${transactionDataIndex}`);
    const hashed = options.mode === 'wrong' ? Buffer.from(encoded, 'base64url').toString('utf8') : encoded;
    const digest = encodeToBase64Url(await hash(decodeUtf8String(hashed), alg as HashAlgorithm));
    claims[id] ??= { transaction_data_hashes: [], transaction_data_hashes_alg: alg };
    const forQuery = claims[id];
    // One algorithm names every hash of a KB-JWT, so entries hashed otherwise cannot share one.
    if (forQuery.transaction_data_hashes_alg !== alg)
      throw new Error(
        `transaction data for query ${id} asks for both ${forQuery.transaction_data_hashes_alg} and ${alg}`,
      );
    forQuery.transaction_data_hashes.push(digest);
  }
  return options.mode === 'omit' ? {} : claims;
}
