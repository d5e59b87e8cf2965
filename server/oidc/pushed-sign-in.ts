import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { SessionApproval } from '../approvals/session-approval.js';
import { type TtlStore, TtlStoreUnavailable } from '../ephemeral/ttl-store.js';
import {
  newSecret,
  REQUEST_URI_PREFIX,
  sha256,
  takeOnce,
} from '../oid4vci/authorization-code/pending-authorization.js';
import { invalidRequest, OAuthError } from '../oid4vci/oauth-error.js';
import {
  AuthorizationError,
  readAuthorizationRequest,
  type ValidAuthorizationRequest,
} from './authorization-request.js';
import { authenticateClient, invalidClient } from './client-authentication.js';
import { OidcClient } from './oidc-client.entity.js';

/**
 * A relying party's request_uri. The ':' after `sign-in` never occurs in the base64url ids of the
 * issuer's pushed requests, so /oauth2/authorize tells the two apart by the prefix alone.
 */
const SIGN_IN_REQUEST_URI_PREFIX = `${REQUEST_URI_PREFIX}sign-in:`;
/** RFC 9126 section 2.2: short-lived; the browser is sent on at once. */
const PUSHED_SIGN_IN_TTL_SECONDS = 60;

/** What a relying party pushed, validated: kept in the TTL store until /oauth2/authorize takes it. */
interface PushedSignIn {
  clientId: string;
  redirectUri: string;
  state?: string;
  nonce: string;
  codeChallenge: string;
  approval?: SessionApproval;
}

// The store holds a hash of the id, so it never sees a usable request_uri.
const keyOf = (id: string) => `oidc-par:${sha256(id)}`;

export const isSignInRequestUri = (requestUri: unknown): requestUri is string =>
  typeof requestUri === 'string' && requestUri.startsWith(SIGN_IN_REQUEST_URI_PREFIX);

/** At PAR an error is answered to the client itself, as JSON (RFC 9126 section 2.3), never redirected. */
const atPar = (e: AuthorizationError) =>
  new OAuthError(e.error === 'invalid_client' ? 401 : 400, e.error, e.description);

/**
 * RFC 9126 section 2 for the OpenID provider: a registered relying party authenticates as it does
 * at the token endpoint (a private_key_jwt assertion may name the issuer, the token endpoint or this
 * endpoint as audience) and pushes its sign-in request, which is checked exactly as GET
 * /oauth2/authorize would check it; the answer is the request_uri the browser is sent with.
 */
export async function pushSignInRequest(req: Request, store: TtlStore, audiences: string[]) {
  const caller = await authenticateClient(req.em, req, audiences);
  if (caller.kind !== 'relying-party')
    throw invalidClient('only a registered relying party pushes sign-in requests');
  const params = (req.body ?? {}) as Record<string, unknown>;
  if (params.request_uri !== undefined) throw invalidRequest('request_uri is not allowed at PAR (RFC 9126)');
  let request: ValidAuthorizationRequest;
  try {
    request = await readAuthorizationRequest(req.em, params);
  } catch (e) {
    throw e instanceof AuthorizationError ? atPar(e) : e;
  }
  const pushed: PushedSignIn = {
    clientId: request.client.id,
    redirectUri: request.redirectUri,
    ...(request.state !== undefined ? { state: request.state } : {}),
    nonce: request.nonce,
    codeChallenge: request.codeChallenge,
    ...(request.approval ? { approval: request.approval } : {}),
  };
  const id = newSecret();
  await store.set(keyOf(id), JSON.stringify(pushed), PUSHED_SIGN_IN_TTL_SECONDS);
  return { request_uri: `${SIGN_IN_REQUEST_URI_PREFIX}${id}`, expires_in: PUSHED_SIGN_IN_TTL_SECONDS };
}

/**
 * The pushed request behind GET /oauth2/authorize?client_id=…&request_uri=…, taken once (RFC 9126
 * section 4: a request_uri is one-time use), for the client that pushed it and that is still
 * registered with that redirect_uri. Nothing here can be trusted enough to redirect to.
 */
export async function takePushedSignIn(
  em: EntityManager,
  store: TtlStore,
  requestUri: string,
  clientId: unknown,
): Promise<ValidAuthorizationRequest> {
  const id = requestUri.slice(SIGN_IN_REQUEST_URI_PREFIX.length);
  const pushed = await takeOnce<PushedSignIn>(store, keyOf(id), PUSHED_SIGN_IN_TTL_SECONDS).catch((e) => {
    // Redis went down since the push: the request cannot be read, so there is nowhere to redirect.
    if (e instanceof TtlStoreUnavailable)
      throw new AuthorizationError(
        'temporarily_unavailable',
        'the sign-in cannot start right now: try again',
      );
    throw e;
  });
  if (!pushed)
    throw new AuthorizationError('invalid_request_uri', 'the request_uri is unknown, used or expired');
  if (pushed.clientId !== clientId)
    throw new AuthorizationError('invalid_request', 'client_id is not the one of the pushed request');
  const client = await em.findOne(OidcClient, { id: pushed.clientId });
  if (!client?.redirectUris.includes(pushed.redirectUri))
    throw new AuthorizationError('invalid_client', 'the client or its redirect_uri is no longer registered');
  const { redirectUri, state, nonce, codeChallenge, approval } = pushed;
  return { client, redirectUri, state, nonce, codeChallenge, ...(approval ? { approval } : {}) };
}
