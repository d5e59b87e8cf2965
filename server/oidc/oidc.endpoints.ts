import express, { type Express, type Request } from 'express';
import type { AppContext } from '../app-context.js';
import { asyncHandler } from '../http/async-handler.js';
import { invalidRequest, OAuthError, sendOAuthError, unsupportedGrantType } from '../oid4vci/oauth-error.js';
import { authenticateToken } from '../tenants/token-auth.js';
import { exchangeResponseCode } from './exchange-response-code.js';
import { openidConfiguration } from './openid-configuration.js';

const invalidClient = () => new OAuthError(401, 'invalid_client', 'client authentication failed');

/** client_secret_basic or client_secret_post: client_id is the tenant, client_secret one of its integrator tokens. */
async function authenticateClient(req: Request): Promise<string> {
  let id = typeof req.body?.client_id === 'string' ? req.body.client_id : undefined;
  let secret = typeof req.body?.client_secret === 'string' ? req.body.client_secret : undefined;
  const basic = /^Basic +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [u, p] = Buffer.from(basic, 'base64').toString().split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  if (!id || !secret) throw invalidClient();
  const principal = await authenticateToken(req.em, secret, 'integrator');
  if (!principal || principal.tenantId !== id) throw invalidClient();
  return id;
}

/** The verifier's OpenID Connect face: discovery, keys, and the token endpoint for redirect codes. */
export function mountOidc(app: Express, ctx: Pick<AppContext, 'config' | 'signer'>): void {
  app.get('/.well-known/openid-configuration', (_req, res) => res.json(openidConfiguration(ctx.config)));
  app.get(
    '/oauth2/jwks',
    asyncHandler(async (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json({ keys: await ctx.signer.publicJwks('oidc') });
    }),
  );
  app.post(
    '/oauth2/token',
    express.urlencoded({ extended: false, limit: '16kb' }),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      try {
        if (req.body?.grant_type !== 'authorization_code')
          throw unsupportedGrantType('only authorization_code is supported');
        const clientId = await authenticateClient(req);
        if (typeof req.body.code !== 'string' || !req.body.code) throw invalidRequest('code is required');
        res.json(
          await exchangeResponseCode(req.em, ctx.signer, ctx.config.verifierUrl, clientId, req.body.code),
        );
      } catch (e) {
        if (e instanceof OAuthError) return sendOAuthError(res, e);
        throw e;
      }
    }),
  );
}
