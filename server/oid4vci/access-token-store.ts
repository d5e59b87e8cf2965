import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../persistence/sql.js';
import { Oid4vciAccessToken } from './oid4vci-state.entity.js';

export const ACCESS_TOKEN_TTL_SECONDS = 300;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * What an access token stands for: its issuance and the credential configuration it offers, and the
 * DPoP key it is bound to, if any.
 */
export interface AccessTokenGrant {
  issuanceId: string;
  configurationId: string;
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

/**
 * The grant of an unexpired access token, if any, read with its issuance's configuration in one
 * statement (a token is deleted with its issuance, so the join never drops a live token).
 */
export async function grantOfAccessToken(sql: Sql, token: string): Promise<AccessTokenGrant | undefined> {
  const [row] = await sql.query<{ issuance_id: string; configuration_id: string; dpop_jkt: string | null }>(
    `select t.issuance_id, i.configuration_id, t.dpop_jkt
     from oid4vci_access_token t join issuance i on i.id = t.issuance_id
     where t.token_hash = $1 and t.expires_at > now()`,
    [hash(token)],
  );
  if (!row) return undefined;
  return {
    issuanceId: row.issuance_id,
    configurationId: row.configuration_id,
    ...(row.dpop_jkt ? { dpopJkt: row.dpop_jkt } : {}),
  };
}
