import { type KeyObject, verify } from 'node:crypto';
import { SDJwtInstance } from '@sd-jwt/core';
import { digest } from '@sd-jwt/crypto-nodejs';

/**
 * @sd-jwt/core set up to check what an issuer key signed (and, given `kbVerifier`, a KB-JWT): the
 * third-party view of a credential or presentation, independent of the service's own code.
 */
export function sdJwtCheckedBy(
  issuerKey: KeyObject,
  kbVerifier?: (data: string, signature: string) => Promise<boolean>,
): SDJwtInstance<Record<string, unknown>> {
  return new SDJwtInstance({
    hasher: digest,
    verifier: (data, sig) =>
      verify(
        'sha256',
        Buffer.from(data),
        { key: issuerKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(sig, 'base64url'),
      ),
    ...(kbVerifier ? { kbVerifier } : {}),
  });
}
