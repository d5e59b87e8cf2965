import type { AuthorizationRequest } from './authorization-request.js';
import { encryptResponse } from './encrypt-response.js';
import { WalletError } from './errors.js';
import { callEndpoint, type HttpOptions } from './http.js';

/** The Authorization Response parameters (OID4VP §8.1) or an error response (§8.5). */
export type AuthorizationResponseParameters =
  | { vp_token: Record<string, string[]>; state?: string }
  | { error: string; error_description?: string; state?: string };

/**
 * The form body to POST to the `response_uri`: for `direct_post` (§8.2) each parameter as a form
 * field, objects JSON-encoded (so `vp_token` is the JSON of the object keyed by query id); for
 * `direct_post.jwt` (§8.3.1) a single `response` field with all parameters encrypted.
 */
export async function encodeAuthorizationResponse(
  request: Pick<AuthorizationRequest, 'response_mode' | 'client_metadata'>,
  parameters: AuthorizationResponseParameters,
): Promise<string> {
  if (request.response_mode === 'direct_post.jwt')
    return new URLSearchParams({
      response: await encryptResponse(parameters, request.client_metadata),
    }).toString();
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  return form.toString();
}

export interface SubmittedResponse {
  /** Where the verifier wants the user agent to go next (§8.2); the caller redirects to it. */
  redirectUri?: string;
  /** The exact form body sent, so that a test can send it again. */
  body: string;
}

/**
 * POSTs a form-encoded Authorization Response to the `response_uri` (§8.2). Success is 200 with a
 * JSON object that may carry `redirect_uri`; an HTTP redirect is not followed but is an error
 * (§14.8), and an error answer becomes an OAuthError with the verifier's `error` code.
 */
export async function submitAuthorizationResponse(
  responseUri: string,
  body: string,
  http: HttpOptions = {},
): Promise<SubmittedResponse> {
  const res = await callEndpoint(
    'response',
    responseUri,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    },
    http,
  );
  const redirectUri = res.body?.redirect_uri;
  if (redirectUri !== undefined && typeof redirectUri !== 'string')
    throw new WalletError('the response endpoint answered a redirect_uri that is not a string');
  return { body, ...(redirectUri !== undefined ? { redirectUri } : {}) };
}
