import { hash } from 'node:crypto';
import type { JWK } from 'jose';
import { encodeCbor } from './encode-cbor.js';

/**
 * SessionTranscript bytes (ISO 18013-5 9.1.5.1: `[DeviceEngagementBytes, EReaderKeyBytes, Handover]`)
 * for the ways an mdoc is requested online: both engagement fields are null, and the Handover binds
 * the device signature to the request. The verifier computes them from its own session, never from
 * what the wallet sends, and passes them to verifyDeviceResponse.
 */

const sha256 = (data: Uint8Array) => hash('sha256', data, 'buffer');

const transcript = (handover: [string, Uint8Array]) => encodeCbor([null, null, handover]);

/**
 * The RFC 7638 SHA-256 thumbprint (raw bytes) of the verifier's response encryption key, as
 * OpenID4VP puts it into the handover: EC and OKP keys (the ones response encryption uses).
 */
export function jwkThumbprintBytes(jwk: JWK): Uint8Array {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : jwk.kty === 'OKP'
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x }
        : undefined;
  if (!members || Object.values(members).some((v) => typeof v !== 'string'))
    throw new TypeError('the response encryption key is not a complete EC or OKP public key');
  return sha256(Buffer.from(JSON.stringify(members)));
}

const thumbprintOf = (key: JWK | null | undefined) => (key ? jwkThumbprintBytes(key) : null);

/**
 * OpenID4VP 1.0 B.2.6.1 (redirects: `direct_post`, `direct_post.jwt`): `OpenID4VPHandover` over
 * [client_id with its prefix, nonce, the thumbprint of the response encryption key or null when the
 * response is not encrypted, response_uri (or redirect_uri)], all as the request carried them.
 */
export function oid4vpSessionTranscript(o: {
  clientId: string;
  nonce: string;
  responseUri: string;
  /** The verifier's public key the response is encrypted to (`direct_post.jwt`); none: not encrypted. */
  responseEncryptionKey?: JWK | null;
}): Uint8Array {
  const info = encodeCbor([o.clientId, o.nonce, thumbprintOf(o.responseEncryptionKey), o.responseUri]);
  return transcript(['OpenID4VPHandover', sha256(info)]);
}

/**
 * OpenID4VP 1.0 B.2.6.2 (Digital Credentials API: `dc_api`, `dc_api.jwt`): `OpenID4VPDCAPIHandover`
 * over [the origin the browser reported (no `origin:` prefix), nonce, the thumbprint of the response
 * encryption key or null].
 */
export function oid4vpDcApiSessionTranscript(o: {
  origin: string;
  nonce: string;
  responseEncryptionKey?: JWK | null;
}): Uint8Array {
  const info = encodeCbor([o.origin, o.nonce, thumbprintOf(o.responseEncryptionKey)]);
  return transcript(['OpenID4VPDCAPIHandover', sha256(info)]);
}

/**
 * ISO/IEC 18013-7 Annex C (`org-iso-mdoc` over the Digital Credentials API): the `dcapi` handover,
 * `["dcapi", SHA-256(CBOR([EncryptionInfo as the base64url text sent, origin]))]`. The same bytes are
 * the HPKE `info` of the encrypted response. Structure checked against SpruceID's and walt.id's
 * verifiers (isomdl Handover::new; walt.id Annex C spec).
 */
export function annexCSessionTranscript(o: { encryptionInfo: string; origin: string }): Uint8Array {
  return transcript(['dcapi', sha256(encodeCbor([o.encryptionInfo, o.origin]))]);
}
