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
