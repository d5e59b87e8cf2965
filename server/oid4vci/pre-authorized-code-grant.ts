import type { Request, Response } from 'express';
import type { Config } from '../config.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import type { Sql } from '../persistence/sql.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-token-store.js';
import { formParameter } from './form-parameter.js';
import { invalidGrant, OAuthError } from './oauth-error.js';
import { redeemPreAuthorizedCode } from './redeem-pre-authorized-code.js';
import { walletProofs } from './wallet-proofs.js';

/**
 * The pre-authorized code grant (OID4VCI 1.0 section 6.1), wherever the token request arrives: at
 * `/oauth2/token`, the token endpoint the metadata names, and at `/oid4vci/v1/token`, kept for
 * wallets that learnt it before.
 *
 * With a `DPoP` proof (RFC 9449 section 5) the token is bound to the proof's key and its type is
 * DPoP; with a wallet attestation (`attest_jwt_client_auth`) the wallet is authenticated. Both are
 * checked completely before their jtis are spent and before the code is looked at, so a refused
 * proof or attestation leaves the pre-authorized code usable.
 */
export async function preAuthorizedCodeGrant(
  req: Request,
  res: Response,
  config: Config,
  codes: OfferCodes,
  sql: Sql,
) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const proofs = await walletProofs(req, config, 'token');
  const { dpop, wallet } = proofs;
  const code = formParameter(body, 'pre-authorized_code', true);
  const txCode = formParameter(body, 'tx_code');
  // Only a code of ours (its MAC checks) gets a proof's jti stored: strangers cannot fill the table.
  const read = codes.readPreAuthorizedCode(code);
  if (!read) {
    res.locals.failedRedemption = true;
    throw invalidGrant('unknown pre-authorized code');
  }
  await proofs.spend(req.em);
  const binding = { dpopJkt: dpop?.jkt, clientId: wallet?.clientId };
  const tokens = await redeemPreAuthorizedCode(req.em, codes, read, txCode, binding, sql).catch(
    (e: unknown) => {
      // What the per-address guessing limit counts (server/rate-limit): a code or tx_code that was wrong.
      if (e instanceof OAuthError && e.error === 'invalid_grant') res.locals.failedRedemption = true;
      throw e;
    },
  );
  proofs.sendNextNonce(res);
  return {
    access_token: tokens.accessToken,
    token_type: dpop ? ('DPoP' as const) : ('Bearer' as const),
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
  };
}
