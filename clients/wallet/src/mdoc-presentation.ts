import {
  CoseKey,
  DeviceRequest,
  DeviceResponse,
  DocRequest,
  IssuerSigned,
  ItemsRequest,
  SessionTranscript,
} from '@owf/mdoc';
import { base64url, calculateJwkThumbprint, type JWK } from 'jose';
import type { ClientMetadata } from './authorization-request.js';
import { selectEncryptionKey } from './encrypt-response.js';
import type { HolderCrypto } from './holder-crypto.js';
import { mdocContext } from './mdoc-values.js';

export interface MdocPresentationInput {
  /** The mdoc as stored: the base64url IssuerSigned with every data element. */
  credential: string;
  /** The data elements to disclose: namespace → element → IntentToRetain. */
  items: Record<string, Record<string, boolean>>;
  /** The HolderCrypto key the MSO binds it to, and its public half (the MSO's deviceKey). */
  holderKeyId: string;
  deviceKey: JWK;
  /** Computed by the wallet from the request (OID4VP B.2.6), never taken from the verifier. */
  sessionTranscript: SessionTranscript;
}

/**
 * A DeviceResponse for one mdoc (ISO 18013-5 8.3.2.1.2.2, OID4VP B.2.5), made by @owf/mdoc: the
 * IssuerSigned with only the requested elements, and a DeviceSignature (ES256, -7) over the
 * DeviceAuthentication, which embeds the SessionTranscript. The HolderCrypto signs the bytes, so
 * the device key never leaves it. Returns the base64url of the CBOR, the vp_token entry.
 */
export async function createMdocPresentation(input: MdocPresentationInput, crypto: HolderCrypto) {
  const issuerSigned = IssuerSigned.fromEncodedForOid4Vci(input.credential);
  const docType = issuerSigned.issuerAuth.mobileSecurityObject.docType;
  const itemsRequest = ItemsRequest.create({ docType, namespaces: input.items });
  const deviceRequest = DeviceRequest.create({ docRequests: [DocRequest.create({ itemsRequest })] });
  // Only the public half and the alg: the library reads the alg, the signature comes from `crypto`.
  const signingKey = CoseKey.create({
    keyType: 2,
    curve: 1,
    algorithm: -7,
    x: base64url.decode(input.deviceKey.x as string),
    y: base64url.decode(input.deviceKey.y as string),
  });
  const response = await DeviceResponse.createWithDeviceRequest(
    {
      deviceRequest,
      sessionTranscript: input.sessionTranscript,
      issuerSigned: [issuerSigned],
      signature: { signingKey },
    },
    mdocContext((toBeSigned) => crypto.sign(input.holderKeyId, toBeSigned)),
  );
  return response.encodedForOid4Vp;
}

/** The RFC 7638 thumbprint (bytes) of the key an encrypted response goes to; null when unencrypted. */
async function encryptionKeyThumbprint(encrypted: boolean, metadata: ClientMetadata | undefined) {
  if (!encrypted) return {};
  const jwkThumbprint = base64url.decode(await calculateJwkThumbprint(selectEncryptionKey(metadata)));
  return { jwkThumbprint };
}

/**
 * The SessionTranscript of a request invoked by redirect (OID4VP B.2.6.1, `OpenID4VPHandover`):
 * client_id with its prefix, nonce, the thumbprint of the response encryption key for
 * direct_post.jwt (null otherwise), and response_uri, all as the signed Request Object has them.
 */
export async function redirectSessionTranscript(request: {
  client_id: string;
  nonce: string;
  response_uri: string;
  response_mode: string;
  client_metadata?: ClientMetadata;
}): Promise<SessionTranscript> {
  const encrypted = await encryptionKeyThumbprint(
    request.response_mode === 'direct_post.jwt',
    request.client_metadata,
  );
  return SessionTranscript.forOid4Vp(
    { clientId: request.client_id, nonce: request.nonce, responseUri: request.response_uri, ...encrypted },
    mdocContext(),
  );
}

/**
 * The SessionTranscript of a Digital Credentials API request (OID4VP B.2.6.2,
 * `OpenID4VPDCAPIHandover`): the origin the platform reported (no `origin:` prefix), the nonce,
 * and the thumbprint of the response encryption key for dc_api.jwt (null otherwise).
 */
export async function dcApiSessionTranscript(
  request: { nonce: string; response_mode: string; client_metadata?: ClientMetadata },
  origin: string,
): Promise<SessionTranscript> {
  const encrypted = await encryptionKeyThumbprint(
    request.response_mode === 'dc_api.jwt',
    request.client_metadata,
  );
  return SessionTranscript.forOid4VpDcApi({ origin, nonce: request.nonce, ...encrypted }, mdocContext());
}
