import type { KeyObject } from 'node:crypto';
import { type JWK, jwtVerify } from 'jose';
import { ChainError } from '../../keys/chain-error.js';
import type { Trust } from '../../trust/trust.js';
import { trustChain } from '../../trust/trust-chain.js';
import { trustsWalletProviders, WALLET_PROVIDER_PURPOSE } from '../../trust/wallet-provider-trust.js';
import { OAuthError } from '../oauth-error.js';
import { publicP256Jwk, walletJwtHeader } from '../wallet-jwt.js';
import { invalidClient } from './client-attestation-errors.js';

export const ATTESTATION_TYP = 'oauth-client-attestation+jwt';
/** Allowed clock skew on the attestation's `exp` and `iat`. */
const SKEW_SECONDS = 60;

export interface VerifiedAttestation {
  /** The client_id of the wallet (shared by all instances of that wallet, HAIP). */
  sub: string;
  /** The wallet instance's key, which signs the PoP. */
  cnfJwk: JWK;
}

/**
 * The wallet provider's key from the attestation's `x5c` (HAIP 1.0, Wallet Attestation):
 * the same chain check as a credential's `x5c` at the verifier (RFC 5280 path rules, leaf not
 * self-signed), to one of the operator's wallet provider roots or a certificate a trust source
 * lists as a wallet provider, as invalid_client. Unlike the verifier, the root itself in x5c is
 * refused: HAIP sends the chain "excluding the trust anchor", and a wallet provider is a party this
 * issuer's operator chose to trust, held to the profile.
 */
function attestationKey(x5c: unknown, trust: Trust, now: number): KeyObject {
  const time = { now: Math.floor(now / 1000), skewSeconds: 0 };
  try {
    return trustChain(x5c, trust, WALLET_PROVIDER_PURPOSE, time, 'refused').chain.leaf.node.publicKey;
  } catch (e) {
    if (!(e instanceof ChainError)) throw e;
    throw invalidClient(
      e.code === 'certificate_untrusted'
        ? 'the client attestation is not issued by a trusted wallet provider'
        : `client attestation x5c: ${e.message}`,
    );
  }
}

/**
 * The Client Attestation JWT (draft-ietf-oauth-attestation-based-client-auth section 5.1): typ,
 * ES256, signed by the leaf of an `x5c` chain to a trusted wallet provider (walletProviderTrust),
 * `sub` and `exp` present and unexpired, `cnf.jwk` a public EC P-256 key.
 */
export async function verifyClientAttestation(
  jwt: string,
  trust: Trust,
  now = Date.now(),
): Promise<VerifiedAttestation> {
  if (!trustsWalletProviders(trust))
    throw invalidClient(
      'this issuer trusts no wallet provider yet (WALLET_PROVIDER_TRUST_ANCHORS or a wallet_provider trust source)',
    );
  const header = walletJwtHeader(jwt, {
    typ: ATTESTATION_TYP,
    what: 'client attestation',
    refuse: invalidClient,
  });
  const key = attestationKey(header.x5c, trust, now);
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: ['ES256'],
      typ: ATTESTATION_TYP,
      requiredClaims: ['sub', 'exp'],
      clockTolerance: SKEW_SECONDS,
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== 'string' || !payload.sub)
      throw invalidClient('client attestation sub is missing');
    const cnf = payload.cnf as { jwk?: unknown } | undefined;
    return { sub: payload.sub, cnfJwk: publicP256Jwk(cnf?.jwk, 'client attestation cnf.jwk', invalidClient) };
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    throw invalidClient(`client attestation does not verify: ${(e as Error).message}`);
  }
}
