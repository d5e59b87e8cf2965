import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Oid4vciAccessToken } from './oid4vci-state.entity.js';

export const ACCESS_TOKEN_TTL_SECONDS = 300;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** An opaque, short-lived access token bound to one issuance; stored only as its hash. */
export async function issueAccessToken(tx: EntityManager, issuanceId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(Oid4vciAccessToken, {
    tokenHash: hash(token),
    issuanceId,
    expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000),
  });
  return token;
}

/** The issuance an unexpired access token is bound to, if any. */
export async function issuanceOfAccessToken(em: EntityManager, token: string): Promise<string | undefined> {
  const row = await em.findOne(Oid4vciAccessToken, {
    tokenHash: hash(token),
    expiresAt: { $gt: new Date() },
  });
  return row?.issuanceId;
}
