import {
  createDecipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hash,
  type JsonWebKey,
} from 'node:crypto';

/**
 * The minimal pipeline's half of `direct_post.jwt`, with node:crypto alone: what the service does
 * per encrypted answer (server/oid4vp/decrypt-response.ts through jose) and nothing more, so that
 * the direct_post.jwt figures are held against a reference that pays the same cryptography: the
 * header read and checked, one ECDH with the wallet's ephemeral key, the Concat KDF (RFC 7518
 * 4.6.2), one AES-GCM decryption, the payload parsed. The service has a key per session; one key
 * here costs the same per answer. Left out: the service also unseals that session key (its keys at
 * rest, not the response's cryptography).
 */

/** An OpenID4VP answer as the verifier reads it: from the form (direct_post) or the JWE (.jwt). */
export interface Answer {
  vp_token?: Record<string, string[]>;
  state?: string;
}

/**
 * The content encryption the bench's wallet uses: @openid4vc/openid4vp picks the first of the
 * wallet's list (ThirdPartyHolder: A128GCM, A256GCM) that the verifier lists (both), so A128GCM.
 */
export const RESPONSE_ENC = 'A128GCM';
const CIPHERS = {
  A128GCM: { bits: 128, cipher: 'aes-128-gcm' },
  A256GCM: { bits: 256, cipher: 'aes-256-gcm' },
} as const;

const lengthPrefixed = (data: Uint8Array) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
};

/** RFC 7518 4.6.2: one SHA-256 round of the Concat KDF suffices for a 128 or 256 bit key. */
function concatKdf(z: Buffer, enc: string, apu: Buffer, apv: Buffer, bits: number) {
  const suppPubInfo = Buffer.alloc(4);
  suppPubInfo.writeUInt32BE(bits);
  const otherInfo = Buffer.concat([
    lengthPrefixed(Buffer.from(enc)),
    lengthPrefixed(apu),
    lengthPrefixed(apv),
    suppPubInfo,
  ]);
  return hash('sha256', Buffer.concat([Buffer.from([0, 0, 0, 1]), z, otherInfo]), 'buffer').subarray(
    0,
    bits / 8,
  );
}

/** The verifier's ECDH-ES key (made at start, not measured) and the decryption of answers to it. */
export function responseDecrypter(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const publicJwk = { kty, crv, x, y, kid, use: 'enc', alg: 'ECDH-ES' } as JsonWebKey;
  return {
    publicJwk,
    /** RFC 7638 thumbprint bytes, computed per answer as the service does for the mdoc handover. */
    thumbprint: () => hash('sha256', JSON.stringify({ crv, kty, x, y }), 'buffer'),
    /** The JSON payload of a compact JWE to this key, or undefined when anything does not check. */
    decrypt(jwe: string): Answer | undefined {
      const [protectedB64 = '', encryptedKey, iv = '', ciphertext = '', tag = ''] = jwe.split('.');
      const header = JSON.parse(Buffer.from(protectedB64, 'base64url').toString('utf8'));
      const content = Object.hasOwn(CIPHERS, header.enc)
        ? CIPHERS[header.enc as keyof typeof CIPHERS]
        : undefined;
      if (header.alg !== 'ECDH-ES' || !content || encryptedKey !== '' || header.kid !== kid) return undefined;
      const epk = createPublicKey({ key: header.epk, format: 'jwk' });
      const z = diffieHellman({ privateKey, publicKey: epk });
      const b64 = (v?: string) => Buffer.from(v ?? '', 'base64url');
      const cek = concatKdf(z, header.enc, b64(header.apu), b64(header.apv), content.bits);
      const decipher = createDecipheriv(content.cipher, cek, b64(iv), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(protectedB64, 'ascii'));
      decipher.setAuthTag(b64(tag));
      const plaintext = Buffer.concat([decipher.update(b64(ciphertext)), decipher.final()]);
      const payload = JSON.parse(plaintext.toString('utf8'));
      return payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : undefined;
    },
  };
}
