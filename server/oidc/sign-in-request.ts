import type { Request } from 'express';
import type { Config } from '../config.js';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import {
  AuthorizationError,
  readAuthorizationRequest,
  type ValidAuthorizationRequest,
} from './authorization-request.js';
import { isSignInRequestUri, takePushedSignIn } from './pushed-sign-in.js';
import { requiresPar, servedRoles } from './served-roles.js';

/**
 * The sign-in request of GET /oauth2/authorize: the one a relying party pushed (request_uri), or the
 * query itself, which only the verifier alone on a host name of its own takes (served-roles.ts,
 * requiresPar). Elsewhere a plain request, once checked so that its redirect_uri can be trusted, is
 * sent back with invalid_request: the metadata says that this server requires PAR, and it does.
 */
export async function signInRequestOf(
  req: Request,
  config: Config,
  store: TtlStore,
): Promise<ValidAuthorizationRequest> {
  const { request_uri: requestUri, client_id: clientId } = req.query;
  if (isSignInRequestUri(requestUri)) return takePushedSignIn(req.em, store, requestUri, clientId);
  const request = await readAuthorizationRequest(req.em, req.query);
  const at = servedRoles(config, req.hostname);
  if (!at || requiresPar(at))
    throw new AuthorizationError(
      'invalid_request',
      'this server takes authorization requests only by PAR: push it to /oauth2/par first (RFC 9126)',
      { uri: request.redirectUri, state: request.state },
    );
  return request;
}
