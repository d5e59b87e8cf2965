import { webcrypto } from 'node:crypto';
import type { Es256Sign } from './key-vault.js';
import type { x509 } from './x509-support.js';

type X509Crypto = ReturnType<typeof x509.cryptoProvider.get>;
type CryptoKey = webcrypto.CryptoKey;

/**
 * What @peculiar/x509 needs to sign a certificate or a CSR with a key it never holds: a CryptoKey
 * stand-in that names the algorithm, and a crypto whose `subtle.sign` hands the to-be-signed bytes
 * to the key's own signing function (a token's C_Sign). WebCrypto's ECDSA signature is IEEE P1363
 * r||s, which is what an Es256Sign returns; the library turns it into DER itself. Everything else
 * (serial numbers, exporting the public key) is node's WebCrypto.
 */
export function remoteSigning(sign: Es256Sign): { key: CryptoKey; crypto: X509Crypto } {
  const key = {
    type: 'private',
    extractable: false,
    algorithm: { name: 'ECDSA', namedCurve: 'P-256' },
    usages: ['sign'],
  } as unknown as CryptoKey;
  const subtle = new Proxy(webcrypto.subtle, {
    get(target, name) {
      if (name === 'sign')
        return async (_algorithm: unknown, signingKey: unknown, data: ArrayBuffer | ArrayBufferView) => {
          if (signingKey !== key) throw new Error('remoteSigning signs with its own key only');
          const bytes = ArrayBuffer.isView(data)
            ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
            : new Uint8Array(data);
          const signature = await sign(bytes);
          return signature.buffer.slice(signature.byteOffset, signature.byteOffset + signature.byteLength);
        };
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const crypto = {
    subtle,
    getRandomValues: <T extends ArrayBufferView | null>(array: T) =>
      webcrypto.getRandomValues(array as never) as T,
    randomUUID: () => webcrypto.randomUUID(),
  } as unknown as X509Crypto;
  return { key, crypto };
}
