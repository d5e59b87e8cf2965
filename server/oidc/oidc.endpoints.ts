import type { Express } from 'express';
import { PRE_AUTHORIZED_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import type { AppContext } from '../app-context.js';
import { asyncHandler } from '../http/async-handler.js';
import { formBody } from '../http/body-parsers.js';
import { requireBodyOfType } from '../http/media-type-guard.js';
import {
  authorizationCodeGrant,
  isIssuanceCode,
} from '../oid4vci/authorization-code/authorization-code-grant.js';
import { mountIssuanceAuthorization } from '../oid4vci/authorization-code/mount-authorization-code.js';
import {
  invalidRequest,
  notFoundError,
  OAuthError,
  sendOAuthError,
  unsupportedGrantType,
} from '../oid4vci/oauth-error.js';
import { preAuthorizedCodeGrant } from '../oid4vci/pre-authorized-code-grant.js';
import { refreshTokenGrant } from '../oid4vci/refresh/refresh-token-grant.js';
import { walletSecurity } from '../oid4vci/wallet-security.js';
import { mountAuthorizationEndpoint } from './authorization-endpoint.js';
import { authenticateClient } from './client-authentication.js';
import { exchangeAuthorizationCode } from './exchange-authorization-code.js';
import { exchangeResponseCode } from './exchange-response-code.js';
import { authorizationServerMetadata, oidcEndpoints } from './openid-configuration.js';
import { mountPar } from './par-endpoint.js';
import { refuseOtherMethods } from './post-only-endpoints.js';
import { assertServableLayout, servedRoles } from './served-roles.js';
import { readUserinfo } from './userinfo.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The authorization server of each origin: discovery, and the token endpoint of every grant it
 * lists (pre-authorized codes of offers, codes of logins, redirect codes of integrator sessions);
 * and the verifier's OpenID Connect face: keys, the login (authorization endpoint) and userinfo.
 */
export function mountOidc(
  app: Express,
  ctx: Pick<AppContext, 'config' | 'signer' | 'verifier' | 'issuance' | 'shared' | 'logger' | 'sql'>,
): void {
  assertServableLayout(ctx.config);
  const endpoints = oidcEndpoints(ctx.config.verifierUrl);
  app.get('/.well-known/openid-configuration', (req, res) => {
    const at = servedRoles(ctx.config, req.hostname);
    if (!at) return sendOAuthError(res, notFoundError('no authorization server at this host name'));
    res.json(authorizationServerMetadata(at, walletSecurity(ctx.config)));
  });
  app.get(
    '/oauth2/jwks',
    asyncHandler(async (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json({ keys: await ctx.signer.publicJwks('oidc') });
    }),
  );
  mountPar(app, ctx);
  // First: it hands the request_uris of the issuer's PAR on to the issuance sign-in.
  mountAuthorizationEndpoint(app, ctx);
  mountIssuanceAuthorization(app, ctx);
  app.post(
    '/oauth2/token',
    formBody('16kb'),
    requireBodyOfType([FORM]),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      try {
        const grant: unknown = req.body?.grant_type;
        if (!grant) throw invalidRequest('grant_type is required (form-encoded, RFC 6749 section 3.2)');
        const at = servedRoles(ctx.config, req.hostname);
        if (grant === PRE_AUTHORIZED_CODE_GRANT && at?.issuer)
          return res.json(await preAuthorizedCodeGrant(req, res, ctx.config, ctx.issuance.codes, ctx.sql));
        // Only the credential issuer gives refresh tokens (the OpenID provider's logins do not).
        if (grant === 'refresh_token' && at?.issuer)
          return res.json(await refreshTokenGrant(req, res, ctx.config));
        // Issuance codes carry a prefix; the OpenID provider's login codes never do.
        if (grant === 'authorization_code' && at?.issuer && (!at.verifier || isIssuanceCode(req.body.code)))
          return res.json(await authorizationCodeGrant(req, res, ctx.config, ctx.shared.ttl, ctx.issuance));
        if (grant !== 'authorization_code' || !at?.verifier) {
          const listed = at ? authorizationServerMetadata(at).grant_types_supported.join(', ') : 'none';
          throw unsupportedGrantType(`grant types of this token endpoint: ${listed}`);
        }
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
            ctx.verifier,
            ctx.config.verifierUrl,
            caller,
            req.body.code,
            req.body.session_binding,
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
  refuseOtherMethods(app);
}
