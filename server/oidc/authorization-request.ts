import type { EntityManager } from '@mikro-orm/postgresql';
import { S256_CODE_CHALLENGE } from '../../contract/oidc/pkce.js';
import type { SessionApproval } from '../approvals/session-approval.js';
import { readApprovalDetails } from './approval-details.js';
import { OidcClient } from './oidc-client.entity.js';

/**
 * An authorization request that cannot be answered. Until client_id and redirect_uri are known good
 * the error is shown to the user and nobody is redirected (RFC 6749 section 4.1.2.1: never redirect to
 * an unverified URI); after that it travels to the redirect_uri as `error`, `error_description`, `state`.
 */
export class AuthorizationError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly redirect?: { uri: string; state: string | undefined },
  ) {
    super(`${error}: ${description}`);
  }
}

export interface ValidAuthorizationRequest {
  client: OidcClient;
  redirectUri: string;
  state: string | undefined;
  nonce: string;
  codeChallenge: string;
  /** RFC 9396 authorization_details asking the user to approve a transaction (server/approvals). */
  approval?: SessionApproval;
}

/** The parameters of a request: the query of GET /oauth2/authorize, or the form pushed at PAR. */
export type RequestParameters = Record<string, unknown>;

/** One parameter: absent, or exactly one string (RFC 6749 section 3.1: none may repeat). */
function single(params: RequestParameters, name: string, fail: (description: string) => AuthorizationError) {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw fail(`${name} must be given once, as a plain value`);
  return value;
}

/**
 * Checks a sign-in request's parameters in the order RFC 6749 section 4.1.2.1 requires, from the
 * query of GET /oauth2/authorize or the form of a pushed request (RFC 9126 section 2.1).
 */
export async function readAuthorizationRequest(
  em: EntityManager,
  params: RequestParameters,
): Promise<ValidAuthorizationRequest> {
  const onPage = (d: string) => new AuthorizationError('invalid_request', d);
  const clientId = single(params, 'client_id', onPage);
  if (!clientId) throw onPage('client_id is missing');
  const client = await em.findOne(OidcClient, { id: clientId });
  if (!client) throw new AuthorizationError('invalid_client', 'client_id is not a registered client');
  const redirectUri = single(params, 'redirect_uri', onPage);
  if (!redirectUri) throw onPage('redirect_uri is missing');
  if (!client.redirectUris.includes(redirectUri))
    throw onPage('redirect_uri is not one the client registered (compared exactly)');

  // From here on the redirect_uri is trusted: errors go back to the client.
  const rawState = params.state;
  const redirect = { uri: redirectUri, state: typeof rawState === 'string' ? rawState : undefined };
  const back = (error: string) => (d: string) => new AuthorizationError(error, d, redirect);
  const invalid = back('invalid_request');
  const state = single(params, 'state', invalid);
  if (state !== undefined && state.length > 1024) throw invalid('state is longer than 1024 characters');
  if (single(params, 'request', invalid) !== undefined)
    throw back('request_not_supported')('request objects are not supported');
  if (single(params, 'request_uri', invalid) !== undefined)
    throw back('request_uri_not_supported')('request_uri is not supported');
  const responseType = single(params, 'response_type', invalid);
  if (!responseType) throw invalid('response_type is missing');
  if (responseType !== 'code')
    throw back('unsupported_response_type')('only response_type=code is supported');
  const responseMode = single(params, 'response_mode', invalid);
  if (responseMode !== undefined && responseMode !== 'query')
    throw invalid('only response_mode=query is supported');
  const scope = single(params, 'scope', invalid);
  if (!scope?.split(' ').includes('openid')) throw back('invalid_scope')('scope must contain openid');
  const nonce = single(params, 'nonce', invalid);
  if (!nonce) throw invalid('nonce is required');
  if (nonce.length > 512) throw invalid('nonce is longer than 512 characters');
  const codeChallenge = single(params, 'code_challenge', invalid);
  if (!codeChallenge) throw invalid('code_challenge is required (PKCE, RFC 7636)');
  if (single(params, 'code_challenge_method', invalid) !== 'S256')
    throw invalid('code_challenge_method must be S256 (transform algorithm not supported)');
  if (!S256_CODE_CHALLENGE.test(codeChallenge))
    throw invalid('code_challenge is not a base64url SHA-256 value');
  if (single(params, 'prompt', invalid)?.split(' ').includes('none'))
    throw back('login_required')('signing in always needs the user to present a credential');
  const approval = readApprovalDetails(
    single(params, 'authorization_details', invalid),
    back('invalid_authorization_details'),
  );
  return { client, redirectUri, state, nonce, codeChallenge, ...(approval ? { approval } : {}) };
}

/** The client's redirect_uri with the response parameters added to its query (and `iss`, RFC 9207). */
export function redirectTo(uri: string, params: Record<string, string | undefined>, issuer: string): string {
  const target = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) target.searchParams.set(k, v);
  target.searchParams.set('iss', issuer);
  return target.toString();
}
