import { createHash, randomBytes } from 'node:crypto';
/** How a relying party authenticates at PAR: HTTP Basic with its secret, or fields of the form. */
export interface ClientAuth {
  basic?: { id: string; secret: string };
  form?: Record<string, string>;
}

export interface PushedSignIn {
  status: number;
  json: Record<string, unknown>;
  /** On success: the address the browser is sent to, client_id and request_uri only. */
  url: string;
}

/**
 * A relying party's sign-in as RFC 9126 has it: the authorization request's parameters pushed to
 * /oauth2/par with the client's authentication (parameters given as undefined are left out), then
 * GET /oauth2/authorize?client_id=…&request_uri=… for the browser.
 */
export async function pushSignIn(
  baseUrl: string,
  params: Record<string, string | undefined>,
  auth: ClientAuth = {},
): Promise<PushedSignIn> {
  const fields = Object.entries({ ...params, ...auth.form }).filter(
    (e): e is [string, string] => e[1] !== undefined,
  );
  const basic = auth.basic
    ? `${encodeURIComponent(auth.basic.id)}:${encodeURIComponent(auth.basic.secret)}`
    : undefined;
  const res = await fetch(`${baseUrl}/oauth2/par`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {}),
    },
    body: new URLSearchParams(fields),
  });
  const json = (await res.json()) as Record<string, unknown>;
  const query = new URLSearchParams({
    client_id: params.client_id ?? '',
    request_uri: String(json.request_uri ?? ''),
  });
  return { status: res.status, json, url: `${baseUrl}/oauth2/authorize?${query}` };
}

/**
 * A confidential relying party's OpenID Connect sign-in with PKCE S256, pushed: the address for the
 * browser, and the verifier and parameters the code exchange needs afterwards.
 */
export async function pushedOidcSignIn(
  baseUrl: string,
  client: { client_id: string; client_secret?: string | null },
  redirectUri: string,
  /** Further request parameters, e.g. RFC 9396 `authorization_details`. */
  extra: Record<string, string> = {},
) {
  const verifier = randomBytes(32).toString('base64url');
  const params = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: 'openid',
    state: randomBytes(12).toString('base64url'),
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  };
  const basic = { id: client.client_id, secret: client.client_secret as string };
  const pushed = await pushSignIn(baseUrl, params, { basic });
  if (pushed.status !== 201) throw new Error(`par: ${pushed.status} ${JSON.stringify(pushed.json)}`);
  return { url: pushed.url, verifier, params };
}

/** The relying party exchanges the code its redirect got, with the PKCE verifier, at the token endpoint. */
export const exchangeOidcCode = (
  baseUrl: string,
  client: { client_id: string; client_secret?: string | null },
  redirectUri: string,
  code: string,
  verifier: string,
) =>
  fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });

/**
 * A wallet's issuer-initiated authorization request for an offer with an authorization_code grant,
 * pushed with its issuer_state (client `wallet-1`, PKCE S256): the address for the holder's browser.
 */
export async function pushForOffer(
  baseUrl: string,
  offerUri: string,
  redirectUri: string,
  state: string,
  /** The offered configuration's scope (OID4VCI: the configuration's id here). */
  scope = 'LEARCredentialEmployee',
) {
  const location = decodeURIComponent(offerUri.split('credential_offer_uri=')[1] ?? '');
  const offer = (await (await fetch(location)).json()) as {
    grants: { authorization_code: { issuer_state: string } };
  };
  const pushed = await pushSignIn(baseUrl, {
    response_type: 'code',
    client_id: 'wallet-1',
    redirect_uri: redirectUri,
    scope,
    code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    issuer_state: offer.grants.authorization_code.issuer_state,
  });
  return pushed.url;
}
