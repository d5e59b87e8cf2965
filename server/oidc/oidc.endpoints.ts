import express, { type Express } from 'express';
import type { AppContext } from '../app-context.js';
import { asyncHandler } from '../http/async-handler.js';
import { invalidRequest, OAuthError, sendOAuthError, unsupportedGrantType } from '../oid4vci/oauth-error.js';
import { mountAuthorizationEndpoint } from './authorization-endpoint.js';
import { authenticateClient } from './client-authentication.js';
import { exchangeAuthorizationCode } from './exchange-authorization-code.js';
import { exchangeResponseCode } from './exchange-response-code.js';
import { oidcEndpoints, openidConfiguration } from './openid-configuration.js';
import { readUserinfo } from './userinfo.js';

/**
 * The verifier's OpenID Connect face: discovery, keys, the login (authorization endpoint), the
 * token endpoint (codes of logins, and redirect codes of integrator sessions) and userinfo.
 */
export function mountOidc(app: Express, ctx: Pick<AppContext, 'config' | 'signer' | 'verifier'>): void {
  const endpoints = oidcEndpoints(ctx.config.verifierUrl);
  app.get('/.well-known/openid-configuration', (_req, res) => res.json(openidConfiguration(ctx.config)));
  app.get(
    '/oauth2/jwks',
    asyncHandler(async (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json({ keys: await ctx.signer.publicJwks('oidc') });
    }),
  );
  mountAuthorizationEndpoint(app, ctx);
  app.post(
    '/oauth2/token',
    express.urlencoded({ extended: false, limit: '16kb' }),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      try {
        if (req.body?.grant_type !== 'authorization_code')
          throw unsupportedGrantType('only authorization_code is supported');
        const caller = await authenticateClient(req.em, req, endpoints.token);
        if (caller.kind === 'relying-party') {
          const issuer = ctx.config.verifierUrl;
          return res.json(
            await exchangeAuthorizationCode(req.em, ctx.signer, issuer, caller.client, req.body),
          );
        }
        if (typeof req.body.code !== 'string' || !req.body.code) throw invalidRequest('code is required');
        res.json(
          await exchangeResponseCode(
            req.em,
            ctx.signer,
            ctx.config.verifierUrl,
            caller.tenantId,
            req.body.code,
          ),
        );
      } catch (e) {
        if (e instanceof OAuthError) return sendOAuthError(res, e);
        throw e;
      }
    }),
  );
  const userinfo = asyncHandler(async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      res.json(await readUserinfo(req.em, req.headers.authorization));
    } catch (e) {
      if (e instanceof OAuthError) return sendOAuthError(res, e);
      throw e;
    }
  });
  app.get('/oauth2/userinfo', userinfo);
  app.post('/oauth2/userinfo', userinfo);
}
