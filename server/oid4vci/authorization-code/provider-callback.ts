import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { PayloadValidator } from '../../credential-configurations/payload-validator.js';
import { findHolderByEmail } from '../../directory/find-holder-by-email.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import type { KeyEncryption } from '../../keys/key-encryption.js';
import { guardedFetch } from '../../outbound/guarded-fetch.js';
import { outboundPolicy } from '../../outbound/outbound-policy.js';
import {
  clientSecretOf,
  holderSignInProviderOf,
  holderSignInRedirectUri,
} from '../../tenants/holder-sign-in-provider.js';
import { type HolderSignIn, SignInError } from './holder-sign-in.js';
import { keys, requestedOf, SIGN_IN_TTL_SECONDS, takeOnce } from './pending-authorization.js';
import { discoverProvider } from './provider-discovery.js';
import { InvalidIdToken, verifyIdToken } from './provider-id-token.js';
import { type ProviderRound, roundKey, tenantOfSignIn } from './provider-sign-in.js';

export interface ProviderServices {
  config: Config;
  store: TtlStore;
  sealing: KeyEncryption;
  validator: PayloadValidator;
  logger: Pick<Logger, 'warn'>;
}

/**
 * The provider's redirect back. The round (by `state`) and the sign-in are each taken once, so a
 * replayed redirect finds nothing. The code is exchanged (client_secret_basic, PKCE), the ID token
 * verified, and the address it names must be the offer's (issuer-initiated) or select a SCIM user
 * of this tenant (wallet-initiated). Any failure ends the sign-in with access_denied to the wallet.
 */
export async function completeProviderSignIn(
  em: EntityManager,
  s: ProviderServices,
  query: Record<string, unknown>,
): Promise<HolderSignIn> {
  const { state, code, error } = query;
  if (typeof state !== 'string') throw new SignInError('invalid_request', 'state is required');
  const round = await takeOnce<ProviderRound>(s.store, roundKey(state), SIGN_IN_TTL_SECONDS);
  const signIn =
    round && (await takeOnce<HolderSignIn>(s.store, keys.signIn(round.session), SIGN_IN_TTL_SECONDS));
  if (!round || !signIn)
    throw new SignInError('invalid_request', 'this sign-in is unknown, finished or expired');
  const deny = (why: string) => new SignInError('access_denied', why, signIn.pending);
  if (error !== undefined || typeof code !== 'string')
    throw deny('the holder did not sign in at the provider');
  const tenantId = tenantOfSignIn(signIn) as string;
  const provider = await holderSignInProviderOf(em, tenantId);
  if (!provider) throw deny('the sign-in provider was removed');
  const policy = outboundPolicy(s.config);
  let email: string;
  try {
    const metadata = await discoverProvider(policy, provider.issuer);
    const basic = [provider.clientId, clientSecretOf(s.sealing, provider)].map(encodeURIComponent).join(':');
    const res = await guardedFetch(policy, metadata.token_endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: holderSignInRedirectUri(s.config.issuerUrl),
        code_verifier: round.codeVerifier,
      }).toString(),
    });
    const idToken = res.ok ? (res.json() as { id_token?: unknown }).id_token : undefined;
    if (typeof idToken !== 'string')
      throw new InvalidIdToken(`the provider gave no ID token (${res.status})`);
    email = await verifyIdToken(policy, metadata, idToken, {
      clientId: provider.clientId,
      nonce: round.nonce,
      emailClaim: provider.emailClaim,
    });
  } catch (e) {
    if (e instanceof SignInError) throw e;
    // The operator needs the reason (a wrong key, nonce, audience...); the holder's browser does not.
    s.logger.warn({ tenant: tenantId, reason: (e as Error).message }, 'holder sign-in at provider refused');
    throw deny('the sign-in at the provider could not be verified');
  }
  if (signIn.pending.issuanceId) {
    if (email.toLowerCase() !== signIn.email?.toLowerCase())
      throw deny('the account signed in with is not the one the credential is for');
    return signIn;
  }
  const holder = await findHolderByEmail(em, s.validator, email, requestedOf(signIn.pending));
  if (holder?.tenantId !== tenantId) throw deny('no credential can be issued to this account');
  return { ...signIn, holder };
}
