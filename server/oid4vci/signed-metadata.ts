import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { servedRoles } from '../oidc/served-roles.js';
import { credentialIssuerMetadata } from './issuer-metadata.js';

/** Spelled `openidvci`, not `openid4vci`, in section 12.2.3 and in the media type registration. */
const SIGNED_METADATA_TYP = 'openidvci-issuer-metadata+jwt';

/**
 * OID4VCI 1.0 section 12.2.3: when the wallet prefers `application/jwt`, the issuer metadata comes
 * as a JWT signed with the issuer key (`sub` = issuer), with the key's certificate chain in `x5c`
 * (HAIP "Issuer Metadata": trust anchor left out, signing certificate not self-signed).
 */
export const signedMetadata =
  (ctx: Pick<AppContext, 'config' | 'signer'>) => async (req: Request, res: Response, next: NextFunction) => {
    if (req.accepts(['application/json', 'application/jwt']) !== 'application/jwt') return next();
    // At the verifier's host name (two host names) the unsigned route answers 404.
    if (!servedRoles(ctx.config, req.hostname)?.issuer) return next();
    try {
      const metadata = await credentialIssuerMetadata(req.em, ctx.config);
      const now = Math.floor(Date.now() / 1000);
      const jwt = await ctx.signer.signJwt(
        'issuer',
        { typ: SIGNED_METADATA_TYP },
        { ...metadata, sub: ctx.config.issuerUrl, iss: ctx.config.issuerUrl, iat: now, exp: now + 86_400 },
        { x5c: true },
      );
      res.type('application/jwt').send(jwt);
    } catch (e) {
      next(e);
    }
  };
