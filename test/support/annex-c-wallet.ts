import { createHash } from 'node:crypto';
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { cborDecode, cborEncode, DeviceRequest } from '@owf/mdoc';
import type { JWK } from 'jose';
import { presentMdoc } from './mdoc-holder.js';

/**
 * The wallet's side of ISO/IEC 18013-7 Annex C, written apart from the service's code (CBOR by
 * @owf/mdoc's cbor-x setup, HPKE by @hpke/core): it reads EncryptionInfo, computes the `dcapi`
 * SessionTranscript the device signature covers, and seals the DeviceResponse to the verifier.
 */
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes128Gcm(),
});

/** `[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo base64url, origin]))]]`, as a wallet computes it. */
export function walletAnnexCTranscript(encryptionInfo: string, origin: string): Uint8Array {
  const hash = createHash('sha256')
    .update(cborEncode([encryptionInfo, origin]))
    .digest();
  return cborEncode([null, null, ['dcapi', new Uint8Array(hash)]]);
}

/** The EncryptedResponse `["dcapi", {enc, cipherText}]`, base64url, as the DC API returns it. */
export async function sealAnnexCResponse(o: {
  encryptionInfo: string;
  origin: string;
  deviceResponse: Uint8Array;
}): Promise<string> {
  const [type, parameters] = cborDecode(new Uint8Array(Buffer.from(o.encryptionInfo, 'base64url'))) as [
    string,
    Map<string, unknown>,
  ];
  if (type !== 'dcapi') throw new Error(`EncryptionInfo of type ${type}`);
  const coseKey = parameters.get('recipientPublicKey') as Map<number, Uint8Array>;
  const point = Buffer.concat([
    Buffer.from([4]),
    coseKey.get(-2) as Uint8Array,
    coseKey.get(-3) as Uint8Array,
  ]);
  const recipientPublicKey = await suite.kem.deserializePublicKey(point);
  const { ct, enc } = await suite.seal(
    { recipientPublicKey, info: walletAnnexCTranscript(o.encryptionInfo, o.origin) },
    o.deviceResponse,
    new Uint8Array(0),
  );
  const encrypted = cborEncode([
    'dcapi',
    new Map<string, Uint8Array>([
      ['enc', new Uint8Array(enc)],
      ['cipherText', new Uint8Array(ct)],
    ]),
  ]);
  return Buffer.from(encrypted).toString('base64url');
}

/**
 * A wallet's whole answer to an `org-iso-mdoc` request, the DigitalCredential's `data`: the
 * DeviceRequest read by @owf/mdoc, the elements it asks for disclosed by presentMdoc under the
 * `dcapi` transcript of `origin`, the DeviceResponse sealed to the request's EncryptionInfo.
 */
export async function answerAnnexCRequest(
  request: { deviceRequest: string; encryptionInfo: string },
  origin: string,
  mdoc: { credential: string; devicePrivateKey: JWK },
): Promise<{ response: string }> {
  const { deviceRequest, encryptionInfo } = request;
  const [docRequest] = DeviceRequest.decode(
    new Uint8Array(Buffer.from(deviceRequest, 'base64url')),
  ).docRequests;
  const asked = docRequest?.itemsRequest.namespaces ?? new Map<string, Map<string, boolean>>();
  const deviceResponse = await presentMdoc({
    issuerSigned: mdoc.credential,
    devicePrivateKey: mdoc.devicePrivateKey,
    sessionTranscript: walletAnnexCTranscript(encryptionInfo, origin),
    disclose: Object.fromEntries([...asked].map(([ns, elements]) => [ns, [...elements.keys()]])),
  });
  return { response: await sealAnnexCResponse({ encryptionInfo, origin, deviceResponse }) };
}
