/**
 * Endpoint discovery as Sphereon's @sphereon/oid4vci-client 0.20 does it
 * (`MetadataClientV1_0_15.retrieveAllMetadata`), retold step by step because that package does not
 * install beside this project's dependencies. What matters is its order, which differs from
 * @openid4vc's: it reads the authorization server's `/.well-known/openid-configuration` FIRST and
 * falls back to `/.well-known/oauth-authorization-server` only when that is missing, appending both
 * suffixes to the server's identifier; and it posts the pre-authorized code to whatever
 * `token_endpoint` the first document it found names. A service whose two documents disagree sends
 * it to the wrong token endpoint.
 */
export interface SphereonDiscovery {
  token_endpoint: string;
  credential_endpoint: string;
  nonce_endpoint?: string;
  /** Which document the token endpoint came from, as the client labels it. */
  authorizationServerType: 'OIDC' | 'OID4VCI';
  authorizationServerMetadata?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** `retrieveWellknown` with errorOnNotFound false: the body of a 2xx, else undefined. */
async function wellKnown(host: string, suffix: string): Promise<Json | undefined> {
  const res = await fetch(`${host.endsWith('/') ? host.slice(0, -1) : host}${suffix}`, {
    headers: { accept: 'application/json' },
  });
  return res.ok ? ((await res.json()) as Json) : undefined;
}

export async function discoverLikeSphereon(issuer: string): Promise<SphereonDiscovery> {
  const credentialIssuer = await wellKnown(issuer, '/.well-known/openid-credential-issuer');
  let tokenEndpoint = credentialIssuer?.token_endpoint as string | undefined;
  let credentialEndpoint = credentialIssuer?.credential_endpoint as string | undefined;
  const servers = (credentialIssuer?.authorization_servers as string[] | undefined) ?? [issuer];
  const server = servers[0] as string;
  let type: SphereonDiscovery['authorizationServerType'] = 'OID4VCI';
  let metadata = await wellKnown(server, '/.well-known/openid-configuration');
  if (metadata) type = 'OIDC';
  else metadata = await wellKnown(server, '/.well-known/oauth-authorization-server');
  if (!metadata && !servers.includes(issuer))
    throw new Error(`authorization server ${server} provided no metadata`);
  if (metadata) {
    const named = metadata.token_endpoint as string | undefined;
    if (!named) throw new Error(`authorization server ${server} did not provide a token_endpoint`);
    if (tokenEndpoint && tokenEndpoint !== named)
      throw new Error(`the issuer names token endpoint ${tokenEndpoint}, its server ${named}`);
    tokenEndpoint = named;
    credentialEndpoint ??= metadata.credential_endpoint as string | undefined;
  }
  // Without any document it guesses `<issuer>/token` and `<issuer>/credential`.
  return {
    token_endpoint: tokenEndpoint ?? `${issuer}/token`,
    credential_endpoint: credentialEndpoint ?? `${issuer}/credential`,
    ...(credentialIssuer?.nonce_endpoint
      ? { nonce_endpoint: credentialIssuer.nonce_endpoint as string }
      : {}),
    authorizationServerType: type,
    ...(metadata ? { authorizationServerMetadata: metadata } : {}),
  };
}
