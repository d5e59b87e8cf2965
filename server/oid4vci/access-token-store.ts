import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Oid4vciAccessToken } from './oid4vci-state.entity.js';

export const ACCESS_TOKEN_TTL_SECONDS = 300;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** What an access token stands for: its issuance, and the DPoP key it is bound to, if any. */
export interface AccessTokenGrant {
  issuanceId: string;
  /** RFC 9449 `cnf.jkt`: the JWK SHA-256 thumbprint of the wallet's DPoP key; absent for Bearer. */
  dpopJkt?: string;
}

/**
 * An opaque, short-lived access token bound to one issuance (and, with DPoP, to the wallet's key);
 * stored only as its hash.
 */
export async function issueAccessToken(
  tx: EntityManager,
  issuanceId: string,
  dpopJkt?: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(Oid4vciAccessToken, {
    tokenHash: hash(token),
    issuanceId,
    expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    dpopJkt: dpopJkt ?? null,
  });
  return token;
}

/** The grant of an unexpired access token, if any. */
export async function grantOfAccessToken(
  em: EntityManager,
  token: string,
): Promise<AccessTokenGrant | undefined> {
  const row = await em.findOne(Oid4vciAccessToken, {
    tokenHash: hash(token),
    expiresAt: { $gt: new Date() },
  });
  if (!row) return undefined;
  return { issuanceId: row.issuanceId, ...(row.dpopJkt ? { dpopJkt: row.dpopJkt } : {}) };
}
