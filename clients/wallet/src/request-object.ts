import { compactVerify, decodeProtectedHeader } from 'jose';
import {
  type AuthorizationRequest,
  type AuthorizationRequestReference,
  parseAuthorizationRequestUri,
  type RequestValidationOptions,
  validateAuthorizationRequest,
} from './authorization-request.js';
import { OAuthError, WalletError } from './errors.js';
import { checkedUrl, type HttpOptions } from './http.js';
import { decodeJwtPart } from './sd-jwt.js';
import { authenticateX509HashClient, X509_HASH_PREFIX } from './x509-hash.js';
import { authenticateX509SanDnsClient, checkResponseUriHost, X509_SAN_DNS_PREFIX } from './x509-san-dns.js';

/** The `typ` of a Request Object (RFC 9101 §10.8); OID4VP §5 requires it. */
export const REQUEST_OBJECT_TYP = 'oauth-authz-req+jwt';

/**
 * The verified Authorization Request behind a link or a parsed reference: the Request Object is
 * fetched by GET (a wallet without `request_uri_method=post` support may, OID4VP §5.1) or taken by
 * value, then verified with `verifyRequestObject`.
 */
export async function fetchRequestObject(
  reference: string | AuthorizationRequestReference,
  opts: RequestValidationOptions = {},
): Promise<AuthorizationRequest> {
  const ref = typeof reference === 'string' ? parseAuthorizationRequestUri(reference) : reference;
  const jwt = 'request' in ref ? ref.request : await getRequestObject(ref.requestUri, opts);
  return verifyRequestObject(jwt, ref.clientId, opts);
}

/**
 * GET the Request Object: no HTTP redirect is followed (OID4VP §14.8: a redirect is an error, so
 * request data cannot go to a host that was not checked), an error status ends the flow (§5.10.2),
 * and the answer must be `application/oauth-authz-req+jwt` (§5.10.1).
 */
async function getRequestObject(requestUri: string, http: HttpOptions): Promise<string> {
  const url = checkedUrl(requestUri, 'request_uri', http);
  const res = await (http.fetch ?? fetch)(url, {
    headers: { accept: `application/${REQUEST_OBJECT_TYP}` },
    redirect: 'manual',
    signal: AbortSignal.timeout(http.timeoutMs ?? 10_000),
  });
  if (res.status >= 300 && res.status < 400)
    throw new WalletError(`request_uri answered a redirect (${res.status}), which is not followed`);
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: unknown; error_description?: unknown };
    throw new OAuthError(
      'request_uri',
      res.status,
      typeof body.error === 'string' ? body.error : `http_${res.status}`,
      typeof body.error_description === 'string' ? body.error_description : undefined,
    );
  }
  const type = res.headers.get('content-type') ?? '';
  if (!/^application\/oauth-authz-req\+jwt\b/i.test(type))
    throw new WalletError(
      `request_uri answered ${type || 'no content type'}, not application/${REQUEST_OBJECT_TYP}`,
    );
  return (await res.text()).trim();
}

/**
 * Verifies a signed Request Object (OID4VP §5, RFC 9101 §6.2) and validates its claims: `typ`
 * oauth-authz-req+jwt, `alg` ES256, a `client_id` with the `x509_hash` prefix (the hash of the `x5c`
 * leaf) or the `x509_san_dns` prefix (a DNS name of the leaf, whose chain must end in a trust anchor,
 * and the host of `response_uri`); other prefixes are refused, not treated as pre-registered. The
 * signature must verify with the leaf's key. An `iss` claim is ignored, as §5 requires.
 */
export async function verifyRequestObject(
  jwt: string,
  expectedClientId: string,
  opts: RequestValidationOptions = {},
): Promise<AuthorizationRequest> {
  const { payload, sanDnsName } = await verifyRequestSignature(jwt, opts);
  const request = validateAuthorizationRequest(payload, expectedClientId, opts);
  if (sanDnsName) checkResponseUriHost(request.response_uri, sanDnsName);
  return request;
}

/**
 * The signature part of `verifyRequestObject`, shared with signed Digital Credentials API requests:
 * the claims of a Request Object whose x509 client identifier authenticates its signer.
 */
export async function verifyRequestSignature(
  jwt: string,
  opts: RequestValidationOptions = {},
): Promise<{ payload: Record<string, unknown>; sanDnsName?: string }> {
  if (jwt.split('.').length !== 3) throw new WalletError('the request object is not a compact JWS');
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(jwt) as Record<string, unknown>;
    payload = decodeJwtPart(jwt, 1);
  } catch {
    throw new WalletError('the request object is not a decodable JWT');
  }
  if (header.typ !== REQUEST_OBJECT_TYP)
    throw new WalletError(`request object typ is ${String(header.typ)}, not ${REQUEST_OBJECT_TYP}`);
  if (header.alg !== 'ES256')
    throw new WalletError(`request object alg ${String(header.alg)} is not supported`);
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : '';
  const sanDns = clientId.startsWith(X509_SAN_DNS_PREFIX)
    ? authenticateX509SanDnsClient(clientId, header.x5c, opts)
    : undefined;
  if (!sanDns && !clientId.startsWith(X509_HASH_PREFIX)) {
    const prefix = clientId.includes(':') ? clientId.slice(0, clientId.indexOf(':')) : '(none)';
    throw new WalletError(
      `invalid_request: client identifier prefix ${prefix} is not supported (only x509_hash and x509_san_dns)`,
    );
  }
  const key = sanDns?.key ?? authenticateX509HashClient(clientId, header.x5c, opts);
  await compactVerify(jwt, key, { algorithms: ['ES256'] }).catch(() => {
    throw new WalletError('the request object signature does not verify with the x5c leaf key');
  });
  return { payload, ...(sanDns ? { sanDnsName: sanDns.dnsName } : {}) };
}
