import { createHash, randomBytes } from 'node:crypto';
import type { HolderRef } from '../../directory/find-holder-by-email.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';

/**
 * What a wallet pushed at PAR (RFC 9126) for an issuance, carried unchanged from the request_uri
 * to the holder's sign-in and on to the authorization code. All of it lives in the TTL store: it is
 * made by unauthenticated requests and must expire by itself (nothing accumulates in PostgreSQL).
 */
export interface PendingAuthorization {
  /** The offer of an issuer-initiated request (from its issuer_state); absent when wallet-initiated. */
  issuanceId?: string;
  tenantId?: string;
  /**
   * The configuration the code is for: the offer's; wallet-initiated, the one the signed-in holder's
   * tenant issues them (until the sign-in, the first of `requested`).
   */
  configurationId: string;
  /** Wallet-initiated: every known configuration the scope asked for, each a request of its own. */
  requested?: string[];
  clientId: string;
  redirectUri: string;
  state?: string;
  /** RFC 7636 S256 challenge. */
  codeChallenge: string;
  /** RFC 9449 section 10: the DPoP key the code is bound to (from the PAR's DPoP proof or dpop_jkt). */
  dpopJkt?: string;
  /** Wallet-initiated: the SCIM user the holder signed in as (set when the sign-in succeeds). */
  holder?: HolderRef;
}

/** The configurations a request asked for (records pushed before `requested` existed name one). */
export const requestedOf = (pending: PendingAuthorization): readonly string[] =>
  pending.requested ?? [pending.configurationId];

/** RFC 9126 section 2.2: short-lived, one use. */
export const REQUEST_URI_TTL_SECONDS = 60;
/** How long the holder has to read the mail and enter the one-time code. */
export const SIGN_IN_TTL_SECONDS = 600;
/** RFC 6749 section 4.1.2: a maximum lifetime of 10 minutes is recommended; the wallet needs seconds. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';
/** Tells our issuance codes apart from the OpenID provider's login codes at the one token endpoint. */
export const ISSUANCE_CODE_PREFIX = 'vci_ac_';

export const newSecret = () => randomBytes(32).toString('base64url');
export const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

// Keys hold hashes of the secrets, so the store never sees a usable request_uri, session or code.
export const keys = {
  pushed: (id: string) => `vci-par:${sha256(id)}`,
  signIn: (session: string) => `vci-sign-in:${sha256(session)}`,
  code: (code: string) => `vci-code:${sha256(code)}`,
  /** The issuance a code redeemed, and the flag of a replay that came while it was redeemed. */
  redeemed: (code: string) => `vci-code-redeemed:${sha256(code)}`,
  replayed: (code: string) => `vci-code-replayed:${sha256(code)}`,
};

/** The claim of a record that takeOnce took: it outlives the record by the claim's TTL. */
export const takenKey = (key: string) => `${key}:taken`;

/**
 * Takes a record once: of two requests racing with the same secret only one gets it, on any node
 * (the claim is a setIfAbsent), and the record is then deleted.
 */
export async function takeOnce<T>(store: TtlStore, key: string, ttlSeconds: number): Promise<T | undefined> {
  const raw = await store.get(key);
  if (!raw) return undefined;
  if (!(await store.setIfAbsent(takenKey(key), '1', ttlSeconds))) return undefined;
  await store.delete(key);
  return JSON.parse(raw) as T;
}

export async function readRecord<T>(store: TtlStore, key: string): Promise<T | undefined> {
  const raw = await store.get(key);
  return raw ? (JSON.parse(raw) as T) : undefined;
}
