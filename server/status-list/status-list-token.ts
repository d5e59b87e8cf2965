import type { StatusListTokenPayload } from '../../contract/status-list/status-list-token.js';
import type { Signer } from '../keys/signer.js';
import { encodeStatusList, type StatusBits } from './status-list-encoding.js';

/**
 * How long a consumer may cache a token before fetching again (the `ttl` claim and the HTTP
 * max-age). One minute bounds how long a relying party that honours it keeps accepting a revoked
 * credential, on top of the second or so the worker takes to republish; a fetch is one
 * primary-key read of a few kilobytes, so thousands of verifiers polling every minute cost little
 * (and a CDN can absorb them, the response being public and cacheable).
 */
export const STATUS_LIST_TTL_SECONDS = 60;

/**
 * Validity of a token (`exp` - `iat`). A token without changes is re-signed after half of it, so a
 * worker outage of up to 12 hours goes unnoticed by verifiers, while a stale copy (a cache, a
 * replay) is refused by every verifier after a day at most.
 */
export const STATUS_LIST_LIFETIME_SECONDS = 86_400;
export const STATUS_LIST_RENEW_AFTER_SECONDS = STATUS_LIST_LIFETIME_SECONDS / 2;

/** The URI of a list: `sub` of its token, `status.status_list.uri` of its credentials, where it is served. */
export const statusListUri = (issuerUrl: string, listId: string) =>
  `${issuerUrl.replace(/\/+$/, '')}/status-lists/${listId}`;

export interface StatusListContent {
  uri: string;
  bits: StatusBits;
  /** The raw byte array (one entry per `bits`, least significant first). */
  statuses: Uint8Array;
}

export interface SignedStatusListToken {
  token: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Compresses the list and signs it with the active `status-list` key as a `statuslist+jwt`. */
export async function buildStatusListToken(
  signer: Signer,
  list: StatusListContent,
  now: Date = new Date(),
): Promise<SignedStatusListToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + STATUS_LIST_LIFETIME_SECONDS;
  const payload: StatusListTokenPayload = {
    sub: list.uri,
    iat,
    exp,
    ttl: STATUS_LIST_TTL_SECONDS,
    status_list: { bits: list.bits, lst: encodeStatusList(list.statuses) },
  };
  // HAIP: the key is resolved from `x5c` (the chain without its trust anchor); `kid` stays beside it.
  const token = await signer.signJwt('status-list', { typ: 'statuslist+jwt' }, payload, { x5c: true });
  return { token, issuedAt: new Date(iat * 1000), expiresAt: new Date(exp * 1000) };
}
