import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Config } from '../../config.js';
import { offerToSignedInHolder } from '../../directory/offer-to-signed-in-holder.js';
import { DomainError } from '../../domain-errors.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import type { IssuanceServices } from '../../issuance/create-issuance.js';
import { Issuance } from '../../issuance/issuance.entity.js';
import { pkceS256Matches } from '../../oidc/pkce.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../access-token-store.js';
import { invalidClient } from '../client-attestation/client-attestation-errors.js';
import { invalidDpopProof } from '../dpop/dpop-errors.js';
import { formParameter } from '../form-parameter.js';
import { credentialScope } from '../issuer-metadata.js';
import { invalidGrant } from '../oauth-error.js';
import { redeemOffer } from '../redeem-offer.js';
import { walletProofs } from '../wallet-proofs.js';
import { rememberRedeemedCode, revokeReplayedCode } from './code-replay.js';
import {
  AUTHORIZATION_CODE_TTL_SECONDS,
  ISSUANCE_CODE_PREFIX,
  keys,
  type PendingAuthorization,
  readRecord,
  takeOnce,
} from './pending-authorization.js';

// RFC 7636 section 4.1: 43 to 128 unreserved characters.

/** Whether a code at /oauth2/token is one of the issuer's (else it is the OpenID provider's). */
export const isIssuanceCode = (code: unknown): boolean =>
  typeof code === 'string' && code.startsWith(ISSUANCE_CODE_PREFIX);

/**
 * The offer the code redeems, its row locked: the one pushed (issuer-initiated), or the signed-in
 * SCIM user's current credential offered now (wallet-initiated: nothing was issued, revoked or
 * written for the user until the wallet proved its PKCE verifier here).
 */
async function issuanceOf(tx: EntityManager, services: IssuanceServices, pending: PendingAuthorization) {
  if (pending.issuanceId)
    return tx.findOne(Issuance, { id: pending.issuanceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!pending.holder) return null;
  try {
    return await offerToSignedInHolder(tx, services, pending.holder, pending.configurationId);
  } catch (e) {
    if (e instanceof DomainError) throw invalidGrant('the credential is no longer available to this holder');
    throw e;
  }
}

/**
 * RFC 6749 section 4.1.3 for an issuance code: PKCE (S256) verified, redirect_uri and client the
 * ones of the pushed request, the DPoP key the code was bound to at PAR (RFC 9449 section 10), and
 * the code used once. Every check runs before the code is taken, so a wrong verifier leaves it
 * usable; the access token is then one the credential endpoint accepts for the offer's issuance
 * (`scope` names its configuration, of those the request asked for). A
 * code presented again after it was taken revokes the tokens of its first use (code-replay.ts).
 */
export async function authorizationCodeGrant(
  req: Request,
  res: Response,
  config: Config,
  store: TtlStore,
  services: IssuanceServices,
) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const proofs = await walletProofs(req, config, 'token');
  const { dpop, wallet } = proofs;
  const code = formParameter(body, 'code', true);
  const verifier = formParameter(body, 'code_verifier', true);
  const redirectUri = formParameter(body, 'redirect_uri', true);
  const pending = isIssuanceCode(code)
    ? await readRecord<PendingAuthorization>(store, keys.code(code))
    : undefined;
  if (!pending) {
    if (isIssuanceCode(code)) await revokeReplayedCode(req.em, store, code);
    throw invalidGrant('unknown, used or expired authorization code');
  }
  // A public client need not repeat client_id (wallets built on @openid4vc/oauth2 do not): the code
  // is bound to its PKCE verifier, and to its DPoP key when it pushed one. When given, it must match.
  const clientId = wallet?.clientId ?? body.client_id;
  if (clientId !== undefined && clientId !== pending.clientId)
    throw wallet
      ? invalidClient('the code was issued to another client')
      : invalidGrant('client_id does not match the code');
  if (redirectUri !== pending.redirectUri)
    throw invalidGrant('redirect_uri does not match the authorization request');
  if (!pkceS256Matches(verifier, pending.codeChallenge))
    throw invalidGrant('code_verifier does not match the code_challenge (PKCE, S256)');
  if (pending.dpopJkt && dpop?.jkt !== pending.dpopJkt)
    throw invalidDpopProof('the code is bound to the DPoP key of the pushed request: prove that key');
  if (!(await takeOnce(store, keys.code(code), AUTHORIZATION_CODE_TTL_SECONDS))) {
    await revokeReplayedCode(req.em, store, code);
    throw invalidGrant('unknown, used or expired authorization code');
  }
  await proofs.spend(req.em);
  const { issuanceId, configurationId, tokens } = await req.em.transactional(async (tx) => {
    const issuance = await issuanceOf(tx, services, pending);
    if (issuance?.status !== 'offered' || issuance.expiresAt <= new Date())
      throw invalidGrant('the offer was used or has expired');
    const binding = { dpopJkt: dpop?.jkt, clientId: wallet?.clientId };
    const redeemed = await redeemOffer(tx, issuance, binding, { grant_type: 'authorization_code' });
    return { issuanceId: issuance.id, configurationId: issuance.configurationId, tokens: redeemed };
  });
  await rememberRedeemedCode(req.em, store, code, issuanceId);
  proofs.sendNextNonce(res);
  return {
    access_token: tokens.accessToken,
    token_type: dpop ? ('DPoP' as const) : ('Bearer' as const),
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    // RFC 6749 section 5.1: what was granted, which may be less than the scope asked for.
    scope: credentialScope(configurationId),
    ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
  };
}
