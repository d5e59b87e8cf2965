import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../persistence/sql.js';
import { hashSecret } from '../tenants/token-secret.js';
import { Oid4vciAccessToken } from './oid4vci-state.entity.js';

export const ACCESS_TOKEN_TTL_SECONDS = 300;

/**
 * What an access token stands for: its issuance and the credential configuration it offers, and the
 * DPoP key it is bound to, if any.
 */
export interface AccessTokenGrant {
  issuanceId: string;
  configurationId: string;
  /** RFC 9449 `cnf.jkt`: the JWK SHA-256 thumbprint of the wallet's DPoP key; absent for Bearer. */
  dpopJkt?: string;
  /** A token of the refresh grant: its family, and its hash (it is spent by one credential response). */
  refresh?: { familyId: string; tokenHash: string };
  /**
   * The issuance as the token was looked up: a credential request signs from this payload and then
   * claims the issuance only if it is still redeemed with it (issue-to-wallet.ts).
   */
  issuance: {
    tenantId: string;
    status: string;
    payload: Record<string, unknown> | null;
    /** Its credential request is deferred until the integrator approves (deferred/). */
    approvalRequired: boolean;
  };
}

/**
 * An opaque, short-lived access token bound to one issuance (and, with DPoP, to the wallet's key;
 * from a refresh, to its refresh family); stored only as its hash.
 */
export async function issueAccessToken(
  tx: EntityManager,
  issuanceId: string,
  dpopJkt?: string,
  refreshFamilyId?: string,
): Promise<string> {
  const { token, row } = newAccessToken(issuanceId, dpopJkt, refreshFamilyId);
  await tx.insert(Oid4vciAccessToken, row);
  return token;
}

/** A fresh access token and the row that stores it (its hash, never the token). */
export function newAccessToken(issuanceId: string, dpopJkt?: string, refreshFamilyId?: string) {
  const token = randomBytes(32).toString('base64url');
  const row: Oid4vciAccessToken = {
    tokenHash: hashSecret(token),
    issuanceId,
    expiresAt: new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    dpopJkt: dpopJkt ?? null,
    refreshFamilyId: refreshFamilyId ?? null,
    spentAt: null,
  };
  return { token, row };
}

/**
 * The grant of an unexpired access token, if any, read with its issuance's configuration in one
 * statement (a token is deleted with its issuance, so the join never drops a live token).
 */
export async function grantOfAccessToken(sql: Sql, token: string): Promise<AccessTokenGrant | undefined> {
  const hash = hashSecret(token);
  const [row] = await sql.query<{
    issuance_id: string;
    configuration_id: string;
    dpop_jkt: string | null;
    refresh_family_id: string | null;
    tenant_id: string;
    status: string;
    payload: Record<string, unknown> | null;
    approval_required: boolean;
  }>(
    `select t.issuance_id, i.configuration_id, t.dpop_jkt, t.refresh_family_id, i.tenant_id, i.status, i.payload,
       i.approval_required
     from oid4vci_access_token t join issuance i on i.id = t.issuance_id
     where t.token_hash = $1 and t.expires_at > now()`,
    [hash],
  );
  if (!row) return undefined;
  return {
    issuanceId: row.issuance_id,
    configurationId: row.configuration_id,
    ...(row.dpop_jkt ? { dpopJkt: row.dpop_jkt } : {}),
    ...(row.refresh_family_id ? { refresh: { familyId: row.refresh_family_id, tokenHash: hash } } : {}),
    issuance: {
      tenantId: row.tenant_id,
      status: row.status,
      payload: row.payload,
      approvalRequired: row.approval_required,
    },
  };
}

/**
 * Spends a refreshed access token on its credential response, in the caller's transaction: true for
 * the first response only, so one refresh gives one fresh credential (batch).
 */
export async function spendRefreshedAccessToken(tx: EntityManager, hash: string): Promise<boolean> {
  const rows = await tx.execute(
    'update oid4vci_access_token set spent_at = ? where token_hash = ? and spent_at is null returning token_hash',
    [new Date(), hash],
  );
  return rows.length > 0;
}
