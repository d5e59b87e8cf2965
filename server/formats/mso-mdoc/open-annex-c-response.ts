import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import type { JWK } from 'jose';
import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import { decodeCborSafely, MDOC_CBOR_LIMITS } from './decode-cbor-safely.js';
import { arrayOf, bytesOf, field, mapOf } from './read-cbor.js';
import { annexCSessionTranscript } from './session-transcript.js';

/**
 * HPKE (RFC 9180) as ISO/IEC 18013-7 Annex C uses it: base mode, DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256, AES-128-GCM; info is the SessionTranscript bytes, aad empty. @owf/mdoc 0.6.0 has
 * neither this nor the `dcapi` handover, hence @hpke/core here.
 */
export const ANNEX_C_HPKE = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes128Gcm(),
});

export interface OpenedAnnexCResponse {
  /** The DeviceResponse the wallet encrypted, for verifyDeviceResponse. */
  deviceResponse: Uint8Array;
  /** The `dcapi` SessionTranscript: the HPKE info, and what the device signature must cover. */
  sessionTranscript: Uint8Array;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Opens the wallet's answer to an Annex C request: `response` is the base64url EncryptedResponse
 * `["dcapi", {"enc": bstr, "cipherText": bstr}]` from the DC API result; `encryptionInfo` the text
 * this session sent, `origin` the page's origin as the server knows it (never as the page reports
 * it). A response for another origin or EncryptionInfo does not decrypt, since both enter the
 * transcript. Failures are PresentationErrors `malformed`; the DeviceResponse is still to be verified.
 */
export async function openAnnexCResponse(o: {
  response: string;
  encryptionInfo: string;
  origin: string;
  recipientPrivateKey: JWK;
  /** Bytes of the EncryptedResponse at most. Default 256 KiB plus the HPKE overhead. */
  maxBytes?: number;
}): Promise<OpenedAnnexCResponse> {
  const maxBytes = o.maxBytes ?? MDOC_CBOR_LIMITS.maxBytes + 1024;
  check(
    typeof o.response === 'string' &&
      o.response.length <= Math.ceil((maxBytes * 4) / 3) &&
      BASE64URL.test(o.response),
    'malformed',
    `the Annex C response is not base64url of at most ${maxBytes} bytes`,
  );
  const what = 'the Annex C EncryptedResponse';
  const encrypted = arrayOf(
    decodeCborSafely(new Uint8Array(Buffer.from(o.response, 'base64url')), what, {
      maxBytes,
      tags: new Set(),
    }),
    what,
  );
  check(encrypted.length === 2 && encrypted[0] === 'dcapi', 'malformed', `${what} is not ["dcapi", {...}]`);
  const data = mapOf(encrypted[1], `the EncryptedResponseData of ${what}`);
  const enc = bytesOf(field(data, 'enc', what), `enc of ${what}`);
  const cipherText = bytesOf(field(data, 'cipherText', what), `cipherText of ${what}`);
  check(enc.length === 65 && enc[0] === 4, 'malformed', `enc of ${what} is not an uncompressed P-256 point`);
  const sessionTranscript = annexCSessionTranscript({ encryptionInfo: o.encryptionInfo, origin: o.origin });
  let plain: ArrayBuffer;
  try {
    const recipientKey = await ANNEX_C_HPKE.kem.importKey(
      'jwk',
      o.recipientPrivateKey as Parameters<typeof ANNEX_C_HPKE.kem.importKey>[1],
      false,
    );
    plain = await ANNEX_C_HPKE.open(
      { recipientKey, enc, info: sessionTranscript },
      cipherText,
      new Uint8Array(0),
    );
  } catch (e) {
    return reject(
      'malformed',
      `${what} does not decrypt for this session: it was made for another origin or request, or altered`,
      e,
    );
  }
  return { deviceResponse: new Uint8Array(plain), sessionTranscript };
}
