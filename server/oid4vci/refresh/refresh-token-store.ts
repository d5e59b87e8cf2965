import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashSecret } from '../../tenants/token-secret.js';
import { Oid4vciRefreshFamily, Oid4vciRefreshToken } from './refresh-family.entity.js';

/** What a refresh family was opened for and bound to. */
export interface RefreshFamilyInput {
  issuanceId: string;
  tenantId: string;
  payload: Record<string, unknown>;
  dpopJkt?: string | undefined;
  clientId?: string | undefined;
  scimUserId?: string | undefined;
  ttlSeconds: number;
}

/** A presented refresh token as stored: its family, and whether it was exchanged before. */
export interface PresentedRefreshToken {
  hash: string;
  used: boolean;
  family: Oid4vciRefreshFamily;
}

const newRefreshToken = () => `vci_rt_${randomBytes(32).toString('base64url')}`;

async function addToken(tx: EntityManager, familyId: string): Promise<string> {
  const token = newRefreshToken();
  await tx.insert(Oid4vciRefreshToken, {
    tokenHash: hashSecret(token),
    familyId,
    createdAt: new Date(),
    usedAt: null,
  });
  return token;
}

/** Opens a family in the caller's transaction; returns its id and first refresh token. */
export async function openRefreshFamily(tx: EntityManager, input: RefreshFamilyInput) {
  const now = new Date();
  const id = randomUUID();
  await tx.insert(Oid4vciRefreshFamily, {
    id,
    issuanceId: input.issuanceId,
    tenantId: input.tenantId,
    payload: input.payload,
    dpopJkt: input.dpopJkt ?? null,
    clientId: input.clientId ?? null,
    scimUserId: input.scimUserId ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000),
  });
  return { familyId: id, refreshToken: await addToken(tx, id) };
}

/**
 * The stored refresh token (looked up by its SHA-256, so comparison is the index's) with its live
 * family; undefined when unknown or when its family ended or expired (worker nodes sweep those,
 * sweep-refresh-families.ts). Reads only.
 */
export async function findRefreshToken(
  em: EntityManager,
  token: string,
): Promise<PresentedRefreshToken | undefined> {
  const hash = hashSecret(token);
  const row = await em.findOne(Oid4vciRefreshToken, { tokenHash: hash }, { disableIdentityMap: true });
  if (!row) return undefined;
  const family = await em.findOne(
    Oid4vciRefreshFamily,
    { id: row.familyId, expiresAt: { $gt: new Date() } },
    { disableIdentityMap: true },
  );
  return family ? { hash, used: row.usedAt !== null, family } : undefined;
}

/**
 * Rotation (RFC 9700 section 4.14.2): marks the presented token used and adds its successor, in the
 * caller's transaction. Undefined when the token was used meanwhile (a racing request won).
 */
export async function rotateRefreshToken(
  tx: EntityManager,
  presented: PresentedRefreshToken,
): Promise<string | undefined> {
  const rows = await tx.execute(
    'update oid4vci_refresh_token set used_at = ? where token_hash = ? and used_at is null returning token_hash',
    [new Date(), presented.hash],
  );
  if (!rows.length) return undefined;
  return addToken(tx, presented.family.id);
}

/** Ends a family: its refresh tokens and the access tokens it gave go with it (cascade). */
export async function endRefreshFamily(tx: EntityManager, familyId: string): Promise<void> {
  await tx.execute('delete from oid4vci_refresh_family where id = ?', [familyId]);
}
