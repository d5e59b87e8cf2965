import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { jwtVerify } from 'jose';
import { importPublicJwk } from '../keys/imported-keys.js';
import type { Signer } from '../keys/signer.js';

export const C_NONCE_TTL_SECONDS = 300;
const TYP = 'c-nonce+jwt';

const hash = (nonce: string) => createHash('sha256').update(nonce).digest('hex');

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

/**
 * Uses up a c_nonce in the caller's transaction: true when it is one of ours, unexpired and not used
 * before. Use is recorded by a conditional insert (only authenticated credential requests get here),
 * so of two requests racing with one nonce exactly one gets it, and a rolled-back request leaves the
 * nonce unused.
 */
export async function consumeCNonce(tx: EntityManager, signer: Signer, nonce: string): Promise<boolean> {
  let exp: number;
  try {
    // The issuer key by kid, its import remembered: this runs in the credential request's transaction.
    const key = async ({ kid }: { kid?: string | undefined }) => {
      const jwk = (await signer.publicJwks('issuer')).find((k) => k.kid === kid);
      if (!jwk) throw new Error('not signed by an issuer key');
      return importPublicJwk(jwk, 'ES256');
    };
    const { payload } = await jwtVerify(nonce, key, {
      typ: TYP,
      algorithms: ['ES256'],
      requiredClaims: ['exp'],
    });
    exp = payload.exp as number;
  } catch {
    return false;
  }
  const rows = await tx.execute(
    `insert into oid4vci_nonce (nonce_hash, expires_at) values (?, ?)
     on conflict (nonce_hash) do nothing returning nonce_hash`,
    [hash(nonce), new Date(exp * 1000)],
  );
  // Used nonces past their expiry can no longer be replayed anyway; swept now and then.
  if (Math.random() < 0.01) await tx.execute('delete from oid4vci_nonce where expires_at < now()');
  return rows.length > 0;
}
