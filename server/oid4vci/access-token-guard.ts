import type { Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { authorizationOf } from '../tenants/token-auth.js';
import { sameSecret } from '../tenants/token-secret.js';
import { type AccessTokenGrant, grantOfAccessToken } from './access-token-store.js';
import { atResource, invalidDpopProof } from './dpop/dpop-errors.js';
import { useDpopProof, verifyDpopProof } from './dpop/verify-dpop-proof.js';
import { OAuthError } from './oauth-error.js';
import { walletSecurity } from './wallet-security.js';

const invalidToken = (d: string, scheme: 'Bearer' | 'DPoP') =>
  new OAuthError(401, 'invalid_token', d, { scheme });

/** DPoP errors of a protected resource: 401 with a DPoP challenge (RFC 9449 section 7.1). */
const asResource = async <T>(check: () => Promise<T>): Promise<T> => {
  try {
    return await check();
  } catch (e) {
    throw e instanceof OAuthError ? atResource(e) : e;
  }
};

/**
 * What the access token of a credential or notification request grants (its issuance and that
 * issuance's configuration). A Bearer token comes as `Authorization: Bearer`; a DPoP-bound one
 * (RFC 9449 section 7) as `Authorization: DPoP` with a proof of the token's key for this very request
 * (`htm`, `htu`, `ath`, our nonce, an unused jti). A DPoP-bound token sent as Bearer is refused, so a
 * stolen token alone is worth nothing.
 */
export async function grantOfRequest(
  req: Request,
  res: Response,
  { config, sql }: Pick<AppContext, 'config' | 'sql'>,
): Promise<AccessTokenGrant> {
  const security = walletSecurity(config);
  const challenge = security.dpopRequired ? 'DPoP' : 'Bearer';
  const presented = authorizationOf(req.headers.authorization);
  if (presented?.scheme !== 'bearer' && presented?.scheme !== 'dpop')
    throw invalidToken('an access token from the token endpoint is required', challenge);
  const scheme = presented.scheme === 'dpop' ? 'DPoP' : 'Bearer';
  const { token } = presented;
  const grant = await grantOfAccessToken(sql, token);
  if (!grant) throw invalidToken('the access token is unknown or expired', scheme);
  if (!grant.dpopJkt) {
    if (scheme === 'DPoP')
      throw invalidToken('this access token is not DPoP-bound; send it as Bearer', 'DPoP');
    return grant;
  }
  if (scheme !== 'DPoP')
    throw invalidToken(
      'this access token is DPoP-bound: send it as Authorization: DPoP with a DPoP proof',
      'DPoP',
    );
  const request = { method: req.method, url: `${config.issuerUrl}${req.path}`, accessToken: token };
  await asResource(async () => {
    const proof = await verifyDpopProof(req.headersDistinct.dpop, request, security.nonces);
    if (!proof) throw invalidDpopProof('a DPoP proof is required with a DPoP-bound access token');
    if (!sameSecret(proof.jkt, grant.dpopJkt as string))
      throw invalidDpopProof('the DPoP proof is not signed by the key the access token is bound to');
    await useDpopProof(req.em, proof);
  });
  res.setHeader('DPoP-Nonce', security.nonces.current());
  return grant;
}
