import { errors, type JWK, jwtVerify } from 'jose';
import { ChainError } from '../../keys/chain-error.js';
import type { Trust } from '../../trust/trust.js';
import { trustChain } from '../../trust/trust-chain.js';
import { trustsWalletProviders, WALLET_PROVIDER_PURPOSE } from '../../trust/wallet-provider-trust.js';
import { invalidProof, OAuthError } from '../oauth-error.js';
import { publicP256Jwk, walletJwtHeader } from '../wallet-jwt.js';

export const KEY_ATTESTATION_TYP = 'key-attestation+jwt';
/** Allowed clock skew on the attestation's `iat` and `exp`. */
const SKEW_SECONDS = 60;
/** More attested keys than this are refused before any is read (the endpoint issues far fewer). */
const MAX_ATTESTED_KEYS = 100;

/**
 * Where the attestation comes: in the `key_attestation` header of a `jwt` proof, where it must have
 * `exp` (appendix D.1), or as the `attestation` proof type, where the caller requires its `nonce`.
 */
export type KeyAttestationUse = 'jwt' | 'attestation';

/** What a verified key attestation asserts about the keys it lists. */
export interface VerifiedKeyAttestation {
  attestedKeys: JWK[];
  keyStorage?: string[];
  userAuthentication?: string[];
  /** A c_nonce of this issuer, when the wallet provider put one in; the caller spends it. */
  nonce?: string;
}

/**
 * The key of the wallet provider (or key storage provider) that signed the attestation, from its
 * `x5c` (HAIP 1.0, Key Attestation): the leaf is not self-signed, the chain leads to one of the
 * operator's wallet provider roots or to a certificate a trust source lists as a wallet provider
 * (walletProviderTrust), and that root is not in x5c ("MUST NOT be included"), as for wallet
 * attestations.
 */
function signerKey(x5c: unknown, trust: Trust, now: number) {
  try {
    const time = { now, skewSeconds: 0 };
    return trustChain(x5c, trust, WALLET_PROVIDER_PURPOSE, time, 'refused').chain.leaf.node.publicKey;
  } catch (e) {
    if (!(e instanceof ChainError)) throw e;
    throw invalidProof(
      e.code === 'certificate_untrusted'
        ? 'the key attestation is not signed by a trusted wallet provider'
        : `key attestation x5c (${e.code}): ${e.message}`,
    );
  }
}

/** `key_storage` or `user_authentication`: absent, or a non-empty array of strings. */
function levels(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.length || !value.every((v) => typeof v === 'string' && v))
    throw invalidProof(`key attestation ${name} must be a non-empty array of strings`);
  return value as string[];
}

/**
 * A key attestation JWT (OID4VCI 1.0 appendix D.1): typ key-attestation+jwt, ES256 (the one
 * proof_signing_alg_values_supported), signed by the leaf of an `x5c` chain to a trusted wallet
 * provider root; `iat` present and not in the future, `exp` (required with `jwt`) not passed;
 * `attested_keys` public EC P-256 keys, the only keys this issuer binds credentials to. Every
 * failure is invalid_proof.
 */
export async function verifyKeyAttestation(
  jwt: string,
  trust: Trust,
  use: KeyAttestationUse,
  now: number,
): Promise<VerifiedKeyAttestation> {
  if (!trustsWalletProviders(trust))
    throw invalidProof(
      'this issuer trusts no wallet provider (WALLET_PROVIDER_TRUST_ANCHORS or a wallet_provider trust source): no key attestation verifies',
    );
  const header = walletJwtHeader(jwt, {
    typ: KEY_ATTESTATION_TYP,
    what: 'key attestation',
    refuse: invalidProof,
  });
  const key = signerKey(header.x5c, trust, now);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(jwt, key, {
      algorithms: ['ES256'],
      typ: KEY_ATTESTATION_TYP,
      requiredClaims: use === 'jwt' ? ['iat', 'exp'] : ['iat'],
      clockTolerance: SKEW_SECONDS,
      currentDate: new Date(now * 1000),
    }));
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    if (e instanceof errors.JWTExpired) throw invalidProof('the key attestation has expired (exp)');
    throw invalidProof(`key attestation does not verify: ${(e as Error).message}`);
  }
  if (typeof payload.iat !== 'number' || payload.iat > now + SKEW_SECONDS)
    throw invalidProof('key attestation iat is in the future');
  const keys = payload.attested_keys;
  if (!Array.isArray(keys) || !keys.length || keys.length > MAX_ATTESTED_KEYS)
    throw invalidProof(`key attestation attested_keys must hold 1 to ${MAX_ATTESTED_KEYS} keys`);
  if (payload.nonce !== undefined && (typeof payload.nonce !== 'string' || !payload.nonce))
    throw invalidProof('key attestation nonce must be a string');
  const keyStorage = levels(payload.key_storage, 'key_storage');
  const userAuthentication = levels(payload.user_authentication, 'user_authentication');
  return {
    attestedKeys: keys.map((k, i) => publicP256Jwk(k, `key attestation attested_keys[${i}]`, invalidProof)),
    ...(keyStorage ? { keyStorage } : {}),
    ...(userAuthentication ? { userAuthentication } : {}),
    ...(payload.nonce ? { nonce: payload.nonce as string } : {}),
  };
}
