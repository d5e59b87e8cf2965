import { randomBytes } from 'node:crypto';
import { checkJwtTimes, decodeJws, es256Verifies } from '../keys/es256-jws.js';
import { p256KeyObject } from '../keys/imported-keys.js';
import type { Signer } from '../keys/signer.js';
import { hashSecret } from '../tenants/token-secret.js';
import { invalidNonce } from './oauth-error.js';

export const C_NONCE_TTL_SECONDS = 300;
const TYP = 'c-nonce+jwt';

/**
 * A fresh c_nonce: a short JWT the issuer key signs (random `jti`, `exp` in 5 minutes). The nonce
 * endpoint is anonymous, so it stores nothing; the nonce proves itself when it comes back.
 */
export async function issueCNonce(signer: Signer): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signer.signJwt(
    'issuer',
    { typ: TYP },
    { jti: randomBytes(16).toString('base64url'), iat: now, exp: now + C_NONCE_TTL_SECONDS },
  );
}

/** A c_nonce that is ours and unexpired, as it is recorded once used: its hash and its expiry. */
export interface CheckedCNonce {
  hash: string;
  expiresAt: Date;
}

/**
 * Whether a c_nonce is one this issuer signed and is still fresh; undefined when not. Using it up
 * is the credential request's transaction's part (issue-to-wallet.ts): a conditional insert of its
 * hash there makes exactly one of two racing requests win, and a rolled-back request leaves it unused.
 */
async function checkCNonce(signer: Signer, nonce: string): Promise<CheckedCNonce | undefined> {
  try {
    const jws = decodeJws(nonce);
    if (jws.header.typ !== TYP || typeof jws.payload.exp !== 'number') return undefined;
    // The issuer key by kid, its import remembered.
    const jwk = (await signer.publicJwks('issuer')).find((k) => k.kid === jws.header.kid);
    if (!jwk || !es256Verifies(jws, p256KeyObject(jwk as Record<string, unknown>))) return undefined;
    checkJwtTimes(jws.payload, Math.floor(Date.now() / 1000));
    return { hash: hashSecret(nonce), expiresAt: new Date(jws.payload.exp * 1000) };
  } catch {
    return undefined;
  }
}

/**
 * The c_nonces of a credential request's proofs and key attestations, each checked once (proofs of
 * a batch may share one); `invalid_nonce` when one is not a fresh c_nonce of this issuer.
 */
export async function checkCNonces(signer: Signer, nonces: string[]): Promise<CheckedCNonce[]> {
  return Promise.all(
    [...new Set(nonces)].map(async (nonce) => {
      const checked = await checkCNonce(signer, nonce);
      if (!checked)
        throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
      return checked;
    }),
  );
}
