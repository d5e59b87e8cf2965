import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * A tenant's own OpenID provider (the part of Entra ID or Okta the holder sees), played by the
 * `oidc-provider` package on a free loopback port: discovery, authorization code with PKCE, ID
 * tokens signed with its own keys. The login and consent screens are replaced by a handler that
 * signs in `signInAs` (the account the test says the holder has) and grants `openid email`.
 */
export async function startTenantOpenIdProvider(redirectUri: string) {
  const accounts = new Map<string, Record<string, unknown>>();
  const state = { signInAs: '' };
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = { client_id: 'credential-issuer', client_secret: 'provider-secret-0123456789abcdef' };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...client,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // Entra ID and Okta put the e-mail scope's claims in the ID token; oidc-provider must be told to.
    conformIdTokenClaims: false,
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...accounts.get(id) }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['tenant-openid-provider-test-cookie-key'] },
    // Its own signing key and lifetimes, as a real provider has (and without the quick-start warnings).
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'tenant-op-1', alg: 'RS256', use: 'sig' }] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return provider.callback()(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = state.signInAs;
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope('openid email');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((e) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
  return {
    issuer,
    ...client,
    /** Creates (or replaces) an account and makes it the one the next sign-in uses. */
    signInAs(id: string, claims: Record<string, unknown>) {
      accounts.set(id, claims);
      state.signInAs = id;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The holder's browser between the service and the provider: follows every redirect (keeping the
 * provider's cookies) until one leaves both, i.e. reaches the wallet's redirect_uri, and returns it.
 * `rewrite` may alter the request to the provider's authorization endpoint (to forge a nonce).
 */
export async function followToWallet(
  start: string | Response,
  origins: string[],
  rewrite?: (url: URL) => void,
): Promise<string> {
  const cookies = new Map<string, string>();
  let res = typeof start === 'string' ? await fetch(start, { redirect: 'manual' }) : start;
  for (let hop = 0; hop < 20; hop++) {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location)
      throw new Error(`no redirect (${res.status}): ${await res.text()}`);
    const next = new URL(location, res.url || undefined);
    if (!origins.includes(next.origin)) return next.toString();
    if (next.pathname === '/auth' && rewrite) rewrite(next);
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    res = await fetch(next, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  }
  throw new Error('too many redirects');
}
