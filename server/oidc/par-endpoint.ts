import type { Express, Request } from 'express';
import type { AppContext } from '../app-context.js';
import { TtlStoreUnavailable } from '../ephemeral/ttl-store.js';
import { asyncHandler } from '../http/async-handler.js';
import { formBody } from '../http/body-parsers.js';
import { requireBodyOfType } from '../http/media-type-guard.js';
import { pushAuthorizationRequest } from '../oid4vci/authorization-code/push-authorization-request.js';
import { notFoundError, OAuthError, sendOAuthError } from '../oid4vci/oauth-error.js';
import { OidcClient } from './oidc-client.entity.js';
import { oidcEndpoints } from './openid-configuration.js';
import { pushSignInRequest } from './pushed-sign-in.js';
import { servedRoles } from './served-roles.js';

// A pushed request lives in the TTL store (Redis): without it, the client is told to try again soon.
const temporarilyUnavailable = () =>
  new OAuthError(503, 'temporarily_unavailable', 'pushed requests cannot be stored right now: try again');

/**
 * Whether a request pushed to a server that is both issuer and OpenID provider is a relying party's:
 * it authenticates as one (Basic, client_secret, client_assertion), or names a registered one. A
 * wallet does neither: it is a public client, or one with a wallet attestation in its own headers.
 */
async function fromRelyingParty(req: Request): Promise<boolean> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (/^Basic /i.test(req.headers.authorization ?? '')) return true;
  if (body.client_secret !== undefined || body.client_assertion !== undefined) return true;
  if (typeof body.client_id !== 'string') return false;
  return (await req.em.count(OidcClient, { id: body.client_id })) > 0;
}

/**
 * POST /oauth2/par (RFC 9126), one endpoint for the server at each host name: a wallet's issuance
 * request goes to the issuer (oid4vci/authorization-code), a relying party's sign-in request to the
 * OpenID provider (pushed-sign-in.ts). Answers 201 with the request_uri, or an OAuth error.
 */
export function mountPar(app: Express, ctx: Pick<AppContext, 'config' | 'issuance' | 'shared'>): void {
  app.post(
    '/oauth2/par',
    formBody('16kb'),
    requireBodyOfType(['application/x-www-form-urlencoded']),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      try {
        const at = servedRoles(ctx.config, req.hostname);
        if (!at) throw notFoundError('no authorization server at this host name');
        const store = ctx.shared.ttl;
        let pushed: { request_uri: string; expires_in: number };
        if (at.verifier && (!at.issuer || (await fromRelyingParty(req)))) {
          const e = oidcEndpoints(at.base);
          pushed = await pushSignInRequest(req, store, [at.base, e.token, e.pushedAuthorizationRequest]);
        } else pushed = await pushAuthorizationRequest(req, res, ctx.config, ctx.issuance.codes, store);
        res.status(201).json(pushed);
      } catch (e) {
        if (e instanceof OAuthError) return sendOAuthError(res, e);
        if (e instanceof TtlStoreUnavailable) return sendOAuthError(res, temporarilyUnavailable());
        throw e;
      }
    }),
  );
}
