import type { EntityManager } from '@mikro-orm/postgresql';
import { statementAudit } from '../audit/audit-log.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import { Params, type Sql } from '../persistence/sql.js';
import { cachedTenant } from '../tenants/tenant-cache.js';
import { newAccessToken } from './access-token-store.js';
import { Oid4vciAccessToken } from './oid4vci-state.entity.js';
import type { RedeemedTokens, TokenBinding } from './redeem-offer.js';

interface OfferRow {
  tenant_id: string;
  status: string;
  expires_at: string;
  tx_code_hash: string | null;
}

/**
 * The pre-authorized code grant's common case with one read and one write and no transaction: an
 * open offer, the right tx_code (compared in constant time, as always), a tenant without refresh
 * tokens. The write redeems the offer only if it is still open (a conditional UPDATE), and only then
 * stores the access token and the audit event; of two wallets racing with one code, the second
 * writes nothing. Returns undefined for everything else (a wrong or missing tx_code, a locked, used
 * or expired offer, refresh tokens, a lost race): the transactional path then decides, counting a
 * wrong code and naming the error, exactly as it always did.
 */
export async function redeemInOneStatement(
  em: EntityManager,
  sql: Sql,
  codes: OfferCodes,
  offerId: string,
  txCode: string | undefined,
  binding: TokenBinding,
): Promise<RedeemedTokens | undefined> {
  const [offer] = await sql.query<OfferRow>(
    'select tenant_id, status, expires_at, tx_code_hash from issuance where id = $1',
    [offerId],
  );
  if (offer?.status !== 'offered' || new Date(offer.expires_at) <= new Date()) return undefined;
  if (offer.tx_code_hash && !(txCode && codes.txCodeMatches(offerId, txCode, offer.tx_code_hash)))
    return undefined;
  if ((await cachedTenant(em, offer.tenant_id))?.refreshTokenTtlSeconds) return undefined;
  const { token, row } = newAccessToken(offerId, binding.dpopJkt);
  const audit = statementAudit([
    {
      tenantId: offer.tenant_id,
      actor: 'wallet',
      action: 'offer.redeemed',
      subject: offerId,
      details: {
        token_type: binding.dpopJkt ? 'DPoP' : 'Bearer',
        ...(binding.clientId ? { wallet_client_id: binding.clientId } : {}),
      },
    },
  ]);
  const params = new Params();
  const text = `with redeemed as (
      update issuance set status = 'redeemed', redeemed_at = now()
      where id = ${params.add(offerId)} and status = 'offered' and expires_at > now()
      returning id
    ), token as (
      ${insertRowSql(entityShape(em, Oid4vciAccessToken), params, row, 'redeemed')}
    ), ${audit.ctes(params, 'redeemed')}
    select count(*)::int as redeemed from redeemed`;
  const [done] = await sql.query<{ redeemed: number }>(text, params.values);
  if (!done?.redeemed) return undefined;
  await audit.committed(em);
  return { accessToken: token };
}
