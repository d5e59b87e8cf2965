import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { ANNEX_C_PROTOCOL } from '../../../contract/oid4vp/dc-api-request.js';
import { coseKeyFromJwk } from './cose-key.js';
import { embedCbor, encodeCbor } from './encode-cbor.js';

/** The Digital Credentials API protocol of ISO/IEC 18013-7 Annex C requests (the contract names it). */
export { ANNEX_C_PROTOCOL };

export interface AnnexCElement {
  namespace: string;
  element: string;
  /** IntentToRetain (ISO 18013-5 8.3.2.1.2.1); default false. */
  intentToRetain?: boolean;
}

export interface AnnexCRequest {
  protocol: typeof ANNEX_C_PROTOCOL;
  /** base64url of the CBOR DeviceRequest: `data.deviceRequest` of the DC API request. */
  deviceRequest: string;
  /** base64url of the CBOR EncryptionInfo: `data.encryptionInfo`; keep it, the transcript hashes this text. */
  encryptionInfo: string;
  /**
   * The private key the response is encrypted to (P-256 JWK, with `d`). The caller keeps it with the
   * session, as secret as any key, until the response arrives or the session ends.
   */
  recipientPrivateKey: JWK;
}

/**
 * A request for one mdoc over the Digital Credentials API by ISO/IEC 18013-7 Annex C: a DeviceRequest
 * (version 1.0, one DocRequest whose ItemsRequestBytes name the doctype and the elements with their
 * IntentToRetain; no readerAuth, the browser vouches for the origin) and EncryptionInfo = ["dcapi",
 * {"nonce": 16 random bytes, "recipientPublicKey": a fresh P-256 COSE_Key}], the key HPKE encrypts
 * the DeviceResponse to. Structures as SpruceID's isomdl-based and walt.id's verifiers send them.
 */
export function createAnnexCRequest(o: {
  doctype: string;
  elements: readonly AnnexCElement[];
  /** The EncryptionInfo nonce (16 bytes or more); default 16 random bytes. */
  nonce?: Uint8Array;
}): AnnexCRequest {
  if (!o.doctype) throw new TypeError('the doctype is empty');
  if (o.nonce && o.nonce.length < 16) throw new RangeError('the nonce must have 16 bytes at least');
  if (o.elements.length === 0) throw new TypeError('an Annex C request asks for one element at least');
  const nameSpaces = new Map<string, Map<string, boolean>>();
  for (const { namespace, element, intentToRetain } of o.elements) {
    const elements = nameSpaces.get(namespace) ?? new Map<string, boolean>();
    elements.set(element, intentToRetain ?? false);
    nameSpaces.set(namespace, elements);
  }
  const itemsRequest = embedCbor(encodeCbor({ docType: o.doctype, nameSpaces }));
  const deviceRequest = encodeCbor({ version: '1.0', docRequests: [{ itemsRequest }] });

  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const encryptionInfo = encodeCbor([
    'dcapi',
    {
      nonce: o.nonce ?? randomBytes(16),
      recipientPublicKey: coseKeyFromJwk(publicKey.export({ format: 'jwk' }) as JWK),
    },
  ]);
  return {
    protocol: ANNEX_C_PROTOCOL,
    deviceRequest: Buffer.from(deviceRequest).toString('base64url'),
    encryptionInfo: Buffer.from(encryptionInfo).toString('base64url'),
    recipientPrivateKey: privateKey.export({ format: 'jwk' }) as JWK,
  };
}
