import { type CredentialFormat, formatOf, type StoredCredential } from './credential-store.js';
import { WalletError } from './errors.js';
import { asObject, checkedUrl, type HttpOptions, stringField } from './http.js';
import type { DcqlQuery } from './select-for-dcql.js';
import { readTransactionData, type TransactionDataOptions } from './transaction-data.js';
import type { X5cCheckOptions } from './x5c-chain.js';

/** The Response Modes this wallet answers with (OID4VP §8.2, §8.3.1). */
export type ResponseMode = 'direct_post' | 'direct_post.jwt';

/** The `client_metadata` request parameter (OID4VP §5.1), with the members this wallet reads typed. */
export interface ClientMetadata {
  jwks?: { keys: Record<string, unknown>[] };
  encrypted_response_enc_values_supported?: string[];
  vp_formats_supported?: Record<string, Record<string, unknown>>;
  [other: string]: unknown;
}

/** A verified Authorization Request: the claims of the Request Object the wallet acts on. */
export interface AuthorizationRequest {
  client_id: string;
  response_type: 'vp_token';
  response_mode: ResponseMode;
  response_uri: string;
  nonce: string;
  state?: string;
  dcql_query: DcqlQuery;
  client_metadata?: ClientMetadata;
  /** base64url JSON objects to approve (§5.1), checked by readTransactionData. */
  transaction_data?: string[];
  [other: string]: unknown;
}

/** Where the Request Object is: by reference (`request_uri`) or by value (`request`), JAR §5. */
export type AuthorizationRequestReference =
  | { clientId: string; requestUri: string; requestUriMethod?: 'get' | 'post' }
  | { clientId: string; request: string };

/**
 * Reads an `openid4vp://` or `haip-vp://` (HAIP 1.0) `?client_id=…&request_uri=…` link (any scheme:
 * a wallet may be invoked through its own https link too). Only signed requests are accepted, since the x509_hash prefix needs the
 * signature (OID4VP §5.9.3): a link that carries the parameters themselves is refused.
 */
export function parseAuthorizationRequestUri(uri: string): AuthorizationRequestReference {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1).split('#')[0] : '';
  const params = new URLSearchParams(query);
  const clientId = params.get('client_id');
  if (!clientId) throw new WalletError('authorization request has no client_id');
  const requestUri = params.get('request_uri');
  const request = params.get('request');
  if (requestUri && request) throw new WalletError('authorization request has both request and request_uri');
  const method = params.get('request_uri_method');
  // OID4VP §5.1: only get and post are defined; a wallet without post support falls back to GET.
  if (method !== null && method !== 'get' && method !== 'post')
    throw new WalletError(`invalid_request_uri_method: ${method}`);
  if (method !== null && !requestUri) throw new WalletError('request_uri_method without request_uri');
  if (requestUri) return { clientId, requestUri, ...(method ? { requestUriMethod: method } : {}) };
  if (request) return { clientId, request };
  throw new WalletError('authorization request is not signed (no request_uri or request)');
}

/** `nonce` and `state` may only hold URL-safe ASCII (OID4VP §5.2). */
const URL_SAFE = /^[A-Za-z0-9._~-]+$/;

/** The `aud` of a Request Object under static discovery (OID4VP §5.8). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

export interface RequestValidationOptions extends HttpOptions, X5cCheckOptions, TransactionDataOptions {
  /** Tolerated clock difference in seconds (default 60). */
  skewSeconds?: number;
}

/**
 * Checks the claims of a verified Request Object (OID4VP §5, §8.2) against what this wallet supports
 * and the `client_id` it was invoked with; returns them typed. Every failure names the parameter.
 */
export function validateAuthorizationRequest(
  payload: Record<string, unknown>,
  expectedClientId: string,
  opts: RequestValidationOptions = {},
): AuthorizationRequest {
  const what = 'request object';
  const clientId = stringField(payload, 'client_id', what);
  // §5.10.1: the client_id of the link and of the Request Object must be identical, prefix included.
  if (clientId !== expectedClientId)
    throw new WalletError(`request object client_id ${clientId} is not the invoked ${expectedClientId}`);
  if (payload.response_type !== 'vp_token')
    throw new WalletError(`response_type ${String(payload.response_type)} is not vp_token`);
  const mode = payload.response_mode;
  if (mode !== 'direct_post' && mode !== 'direct_post.jwt')
    throw new WalletError(`response_mode ${String(mode)} is not supported`);
  checkedUrl(stringField(payload, 'response_uri', what), 'response_uri', opts);
  if (payload.redirect_uri !== undefined)
    throw new WalletError('invalid_request: redirect_uri must not be present with response_uri');
  if (!URL_SAFE.test(stringField(payload, 'nonce', what))) throw new WalletError('nonce is not URL-safe');
  if (payload.state !== undefined && (typeof payload.state !== 'string' || !URL_SAFE.test(payload.state)))
    throw new WalletError('state is not a URL-safe string');
  if (payload.scope !== undefined && payload.dcql_query !== undefined)
    throw new WalletError('invalid_request: both scope and dcql_query');
  asObject(payload.dcql_query, 'dcql_query');
  // §5.1: even one unknown or malformed entry fails the whole request, before anything is shown.
  readTransactionData(payload.transaction_data, payload.dcql_query, opts);
  if (payload.client_metadata !== undefined)
    checkClientMetadata(asObject(payload.client_metadata, 'client_metadata'));
  checkTimes(payload, opts);
  const aud = payload.aud;
  if (
    aud !== undefined &&
    aud !== SELF_ISSUED_AUDIENCE &&
    !(Array.isArray(aud) && aud.includes(SELF_ISSUED_AUDIENCE))
  )
    throw new WalletError(`request object aud ${JSON.stringify(aud)} is not ${SELF_ISSUED_AUDIENCE}`);
  return payload as AuthorizationRequest;
}

export function checkTimes(payload: Record<string, unknown>, opts: RequestValidationOptions) {
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const skew = opts.skewSeconds ?? 60;
  const { exp, iat, nbf } = payload;
  if (exp !== undefined && (typeof exp !== 'number' || exp + skew <= now))
    throw new WalletError('the request object has expired');
  if (iat !== undefined && (typeof iat !== 'number' || iat - skew > now))
    throw new WalletError('the request object was issued in the future');
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf - skew > now))
    throw new WalletError('the request object is not valid yet');
}

/**
 * Per format of ours, the algorithm lists of `vp_formats_supported` and the values we sign with:
 * ES256 for SD-JWT VCs and KB-JWTs (B.3.4); for mdocs ES256 on P-256, which `-7` or `-9` (ESP256,
 * ES256 fully specified for P-256) in the verifier's lists accepts (B.2.2).
 */
const OUR_ALGS: Record<CredentialFormat, { lists: string[]; algs: unknown[] }> = {
  'dc+sd-jwt': { lists: ['sd-jwt_alg_values', 'kb-jwt_alg_values'], algs: ['ES256'] },
  mso_mdoc: { lists: ['issuerauth_alg_values', 'deviceauth_alg_values'], algs: [-7, -9] },
};

/** Why each format of ours is refused by the verifier's `vp_formats_supported`, if it is. */
function refusedFormats(metadata: ClientMetadata | undefined): Map<CredentialFormat, string> {
  const refused = new Map<CredentialFormat, string>();
  if (metadata?.vp_formats_supported === undefined) return refused;
  const formats = asObject(metadata.vp_formats_supported, 'vp_formats_supported');
  for (const [format, ours] of Object.entries(OUR_ALGS) as [CredentialFormat, typeof OUR_ALGS.mso_mdoc][]) {
    if (formats[format] === undefined) {
      refused.set(format, `the verifier takes no ${format}`);
      continue;
    }
    const given = asObject(formats[format], `vp_formats_supported.${format}`);
    const lacking = ours.lists.find(
      (list) =>
        given[list] !== undefined &&
        !(Array.isArray(given[list]) && ours.algs.some((a) => (given[list] as unknown[]).includes(a))),
    );
    if (lacking) refused.set(format, `${format} ${lacking} lacks ${ours.algs.join(' or ')}`);
  }
  return refused;
}

/**
 * The stored credentials the verifier can take: those of a format its `vp_formats_supported` lists
 * with an algorithm we sign with (all of them when it says nothing). Per format, so a verifier of
 * mdocs only is served from the mdocs.
 */
export function credentialsAcceptedBy<C extends StoredCredential>(
  metadata: ClientMetadata | undefined,
  credentials: C[],
): C[] {
  const refused = refusedFormats(metadata);
  return credentials.filter((c) => !refused.has(formatOf(c)));
}

/**
 * The verifier must accept at least one of our formats: SD-JWT VCs signed and key-bound with ES256
 * (the only algorithm we have), or mdocs whose IssuerAuth and DeviceAuth are ES256 on P-256.
 */
export function checkClientMetadata(metadata: Record<string, unknown>) {
  const refused = refusedFormats(metadata as ClientMetadata);
  if (refused.size === Object.keys(OUR_ALGS).length)
    throw new WalletError(`vp_formats_not_supported: ${[...refused.values()].join('; ')}`);
}
