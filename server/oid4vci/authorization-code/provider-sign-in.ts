import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { outboundPolicy } from '../../outbound/outbound-policy.js';
import { holderSignInProviderOf, holderSignInRedirectUri } from '../../tenants/holder-sign-in-provider.js';
import { type HolderSignIn, SignInError } from './holder-sign-in.js';
import { newSecret, SIGN_IN_TTL_SECONDS, sha256 } from './pending-authorization.js';
import { discoverProvider, ProviderUnavailable } from './provider-discovery.js';

/** What the provider's redirect back must match: kept under the hash of its `state`. */
export interface ProviderRound {
  session: string;
  nonce: string;
  codeVerifier: string;
}

export const roundKey = (state: string) => `vci-provider-round:${sha256(state)}`;

/** The tenant whose provider this sign-in uses: the offer's, or the one of the user the address selected. */
export const tenantOfSignIn = (s: HolderSignIn) => s.pending.tenantId ?? s.holder?.tenantId;

/**
 * Sends the holder to their organisation's OpenID provider (OpenID Connect Core 1.0 section 3.1.2):
 * the authorization code flow with PKCE S256, a fresh `state` (which round this is) and `nonce`
 * (bound into the ID token), and the address as `login_hint`. The round is kept for the sign-in's
 * remaining time; the client secret is not needed until the code comes back.
 */
export async function providerAuthorizationUrl(
  em: EntityManager,
  store: TtlStore,
  config: Config,
  session: string,
  signIn: HolderSignIn,
): Promise<string> {
  const tenantId = tenantOfSignIn(signIn);
  const provider = tenantId ? await holderSignInProviderOf(em, tenantId) : null;
  if (!provider) throw new SignInError('access_denied', 'the sign-in provider was removed', signIn.pending);
  let metadata: Awaited<ReturnType<typeof discoverProvider>>;
  try {
    metadata = await discoverProvider(outboundPolicy(config), provider.issuer);
  } catch (e) {
    if (!(e instanceof ProviderUnavailable)) throw e;
    throw new SignInError(
      'temporarily_unavailable',
      'the sign-in provider cannot be reached',
      signIn.pending,
    );
  }
  const round: ProviderRound = { session, nonce: newSecret(), codeVerifier: newSecret() };
  const state = newSecret();
  await store.set(roundKey(state), JSON.stringify(round), SIGN_IN_TTL_SECONDS);
  const url = new URL(metadata.authorization_endpoint);
  const params = {
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: holderSignInRedirectUri(config.issuerUrl),
    scope: 'openid email',
    state,
    nonce: round.nonce,
    code_challenge: sha256(round.codeVerifier),
    code_challenge_method: 'S256',
    ...(signIn.email ? { login_hint: signIn.email } : {}),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
