import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { credentialIssuerMetadata } from './issuer-metadata.js';

/**
 * OID4VCI 1.0 section 12.2.3: when the wallet prefers `application/jwt`, the issuer metadata comes
 * as a JWT signed with the issuer key (`typ: openid4vci-issuer-metadata+jwt`, `sub` = issuer).
 */
export const signedMetadata =
  (ctx: Pick<AppContext, 'config' | 'signer'>) => async (req: Request, res: Response, next: NextFunction) => {
    if (req.accepts(['application/json', 'application/jwt']) !== 'application/jwt') return next();
    try {
      const metadata = await credentialIssuerMetadata(req.em, ctx.config);
      const now = Math.floor(Date.now() / 1000);
      const jwt = await ctx.signer.signJwt(
        'issuer',
        { typ: 'openid4vci-issuer-metadata+jwt' },
        { ...metadata, sub: ctx.config.issuerUrl, iss: ctx.config.issuerUrl, iat: now, exp: now + 86_400 },
      );
      res.type('application/jwt').send(jwt);
    } catch (e) {
      next(e);
    }
  };
