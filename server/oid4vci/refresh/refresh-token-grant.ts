import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { appendAuditEvent } from '../../audit/audit-log.js';
import type { Config } from '../../config.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from '../access-token-store.js';
import { invalidClient } from '../client-attestation/client-attestation-errors.js';
import { invalidDpopProof } from '../dpop/dpop-errors.js';
import { formParameter } from '../form-parameter.js';
import { invalidGrant } from '../oauth-error.js';
import { walletProofs } from '../wallet-proofs.js';
import type { Oid4vciRefreshFamily } from './refresh-family.entity.js';
import { refreshRefusal } from './refresh-refusal.js';
import { endRefreshFamily, findRefreshToken, rotateRefreshToken } from './refresh-token-store.js';

const REUSED = 'this refresh token was used before: its grant has ended, start the issuance again';

/**
 * The refresh token grant (RFC 6749 section 6) for credential refresh (OID4VCI 1.0 section 13.5,
 * HAIP 1.0 section 4.4): a new access token for the same issuance, so that the wallet can fetch a
 * fresh credential with a new key proof. The token presented must be of a live family, proven by
 * the DPoP key and the attested wallet the family is bound to (RFC 9449 section 5), and its
 * credential still in good standing. A token of an unbound family is then used up and replaced
 * (rotation), and one presented a second time ends its whole family (RFC 9700 section 4.14.2). A
 * DPoP-bound one is worth nothing without its key, so it is not rotated (RFC 9700 section 4.14.2
 * asks rotation only of unbound tokens; FAPI 2.0 advises against rotating sender-constrained ones):
 * it stays valid until its family ends, and the answer gives it back unchanged. Every other refusal
 * changes nothing.
 */
export async function refreshTokenGrant(req: Request, res: Response, config: Config) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const proofs = await walletProofs(req, config, 'token');
  const { dpop, wallet } = proofs;
  const token = formParameter(body, 'refresh_token', true);
  const presented = await findRefreshToken(req.em, token);
  if (!presented) throw invalidGrant('unknown, ended or expired refresh token');
  const { family } = presented;
  // The binding is checked before reuse: a token stolen without its key can neither refresh nor end
  // the holder's grant.
  if (family.dpopJkt && dpop?.jkt !== family.dpopJkt)
    throw invalidDpopProof('the refresh token is bound to a DPoP key: prove that key');
  if (family.clientId && wallet?.clientId !== family.clientId)
    throw invalidClient('the refresh token was issued to another wallet: authenticate as that wallet');
  if (presented.used) {
    // A replayed DPoP proof or PoP is refused first: only a fresh proof of the key ends the family.
    await proofs.spend(req.em);
    await req.em.transactional((tx) => endFamily(tx, family, 'refresh_token.reused'));
    throw invalidGrant(REUSED);
  }
  const refusal = await refreshRefusal(req.em, family);
  if (refusal) throw invalidGrant(refusal);
  await proofs.spend(req.em);
  const rotate = !family.dpopJkt;
  const outcome = await req.em.transactional(async (tx) => {
    const refreshToken = rotate ? await rotateRefreshToken(tx, presented) : token;
    // Used by a request that raced this one: a reuse like any other.
    if (!refreshToken) {
      await endFamily(tx, family, 'refresh_token.reused');
      return invalidGrant(REUSED);
    }
    const accessToken = await issueAccessToken(tx, family.issuanceId, dpop?.jkt, family.id);
    await appendAuditEvent(tx, {
      tenantId: family.tenantId,
      actor: 'wallet',
      action: 'refresh_token.used',
      subject: family.issuanceId,
      details: {
        family: family.id,
        rotated: rotate,
        token_type: dpop ? 'DPoP' : 'Bearer',
        ...(wallet ? { wallet_client_id: wallet.clientId } : {}),
      },
    });
    return { accessToken, refreshToken };
  });
  if (outcome instanceof Error) throw outcome;
  proofs.sendNextNonce(res);
  return {
    access_token: outcome.accessToken,
    token_type: dpop ? ('DPoP' as const) : ('Bearer' as const),
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: outcome.refreshToken,
  };
}

/** Ends the family for its reuse, audited; in the caller's transaction, which commits though the request fails. */
async function endFamily(tx: EntityManager, family: Oid4vciRefreshFamily, action: string) {
  await endRefreshFamily(tx, family.id);
  await appendAuditEvent(tx, {
    tenantId: family.tenantId,
    actor: 'wallet',
    action,
    subject: family.issuanceId,
    details: { family: family.id },
  });
}
