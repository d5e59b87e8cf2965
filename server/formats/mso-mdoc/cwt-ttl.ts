import { CborTag } from './cbor-values.js';
import { P256_ALGS, readCoseSign1 } from './cose-sign1.js';
import { decodeCborSafely } from './decode-cbor-safely.js';
import { COSE_SIGN1_TAG, CWT_CLAIM } from './sign-status-list-cwt.js';

/**
 * How long a fetched CWT Status List Token (base64url) may be reused: its `ttl` (65534), never past
 * its `exp` (4); `exp` alone without a ttl; 0 (not cached) when it cannot be read. Read unverified:
 * it only decides when to fetch again, every use verifies the token (tokenTtlSeconds, for CWTs).
 */
export function cwtTtlSeconds(token: string, now: Date): number {
  try {
    const tagged = decodeCborSafely(Buffer.from(token, 'base64url'), 'a status list token', {
      tags: new Set([COSE_SIGN1_TAG]),
    });
    if (!(tagged instanceof CborTag)) return 0;
    const { payload } = readCoseSign1(tagged.value, 'a status list token', P256_ALGS);
    if (!payload) return 0;
    const claims = decodeCborSafely(payload, 'its claims', { tags: new Set() });
    if (!(claims instanceof Map)) return 0;
    const exp = claims.get(CWT_CLAIM.exp);
    const ttl = claims.get(CWT_CLAIM.ttl);
    const untilExp = typeof exp === 'number' ? exp - now.getTime() / 1000 : undefined;
    if (typeof ttl === 'number' && ttl > 0) return untilExp === undefined ? ttl : Math.min(ttl, untilExp);
    return untilExp ?? 0;
  } catch {
    return 0;
  }
}
