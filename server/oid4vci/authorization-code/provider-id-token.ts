import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { guardedFetch } from '../../outbound/guarded-fetch.js';
import type { OutboundPolicy } from '../../outbound/outbound-policy.js';
import { sameSecret } from '../../tenants/token-secret.js';
import type { ProviderMetadata } from './provider-discovery.js';

// Asymmetric only: an HS256 token would be "signed" with the client secret the issuer also holds.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export class InvalidIdToken extends Error {}

export interface IdTokenCheck {
  clientId: string;
  nonce: string;
  emailClaim: string;
}

/**
 * OpenID Connect Core 1.0 section 3.1.3.7: the ID token's signature by a key of the provider's JWKS
 * (read through the guarded outbound fetch), `iss` the provider, `aud` our client, `exp` in the
 * future, `nonce` the one this sign-in sent (constant-time compare). Returns the e-mail address of
 * the claim the tenant named; `email_verified`, when present, must be true.
 */
export async function verifyIdToken(
  policy: OutboundPolicy,
  metadata: ProviderMetadata,
  idToken: string,
  check: IdTokenCheck,
): Promise<string> {
  let jwks: JSONWebKeySet;
  try {
    jwks = (await guardedFetch(policy, metadata.jwks_uri)).json() as JSONWebKeySet;
  } catch (e) {
    throw new InvalidIdToken(`the provider's keys could not be read: ${(e as Error).message}`);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
      issuer: metadata.issuer,
      audience: check.clientId,
      algorithms: ALGORITHMS,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (e) {
    throw new InvalidIdToken(`the ID token is not valid: ${(e as Error).message}`);
  }
  if (typeof payload.nonce !== 'string' || !sameSecret(payload.nonce, check.nonce))
    throw new InvalidIdToken('the ID token is not for this sign-in (nonce)');
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== check.clientId)
    throw new InvalidIdToken('the ID token was issued to another party (azp)');
  const email = payload[check.emailClaim];
  if (typeof email !== 'string' || !email)
    throw new InvalidIdToken(`the ID token has no ${check.emailClaim}`);
  if (payload.email_verified !== undefined && payload.email_verified !== true)
    throw new InvalidIdToken('the provider has not verified the e-mail address');
  return email;
}
