import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import {
  CoseKey,
  cborDecode,
  DeviceRequest,
  DeviceResponse,
  DocRequest,
  IssuerSigned,
  ItemsRequest,
  type MdocContext,
  SessionTranscript,
} from '@owf/mdoc';
import { calculateJwkThumbprint, type JWK } from 'jose';

/**
 * A holder (wallet) built on @owf/mdoc 0.6.0, an implementation the service did not write: it reads
 * an IssuerSigned, discloses the asked elements and signs the DeviceAuthentication with the device
 * key. The crypto it needs is node:crypto, passed in as the library asks.
 */

const p256Private = (jwk: JWK) =>
  createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, format: 'jwk' });

const context = (devicePrivateKey: JWK): Pick<MdocContext, 'crypto' | 'cose'> => ({
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKey: () => {
      throw new Error('this holder authenticates with a signature, never a MAC');
    },
  },
  cose: {
    sign1: {
      // The library passes its CoseKey; the key is the device key this holder was given.
      sign: ({ toBeSigned }) =>
        new Uint8Array(
          sign('sha256', toBeSigned, { key: p256Private(devicePrivateKey), dsaEncoding: 'ieee-p1363' }),
        ),
      verify: ({ sign1, key }) =>
        verify(
          'sha256',
          sign1.toBeSigned,
          {
            key: createPublicKey({ key: key.jwk as JWK as never, format: 'jwk' }),
            dsaEncoding: 'ieee-p1363',
          },
          sign1.signature,
        ),
    },
    mac0: {
      sign: () => {
        throw new Error('no MAC');
      },
      verify: () => {
        throw new Error('no MAC');
      },
    },
  },
});

/**
 * A SessionTranscript the library cannot build (ISO 18013-7 Annex C's `dcapi` handover is not in
 * 0.6.0), given as bytes: it is embedded into the DeviceAuthentication as given.
 */
class GivenSessionTranscript extends SessionTranscript {
  readonly #structure: unknown;
  constructor(bytes: Uint8Array) {
    super(undefined as never);
    this.#structure = cborDecode(bytes);
  }
  override get encodedStructure() {
    return this.#structure as never;
  }
}

export interface Presentation {
  /** IssuerSigned as issued: CBOR, or the base64url of an OID4VCI Credential Response. */
  issuerSigned: Uint8Array | string;
  /** The device key pair (P-256 JWK with `d`). */
  devicePrivateKey: JWK;
  /** The library's own SessionTranscript (computed by the wallet from the request), or bytes. */
  sessionTranscript: SessionTranscript | Uint8Array;
  /** The elements to disclose, by namespace. */
  disclose: Record<string, string[]>;
  /** COSE alg of the device signature: ES256 (-7, default) or ESP256 (-9). */
  alg?: -7 | -9;
}

/** A DeviceResponse (CBOR) for one mdoc, made by @owf/mdoc. */
export async function presentMdoc(p: Presentation): Promise<Uint8Array> {
  const issuerSigned =
    typeof p.issuerSigned === 'string'
      ? IssuerSigned.fromEncodedForOid4Vci(p.issuerSigned)
      : IssuerSigned.decode(p.issuerSigned);
  const docType = issuerSigned.issuerAuth.mobileSecurityObject.docType;
  const namespaces = Object.fromEntries(
    Object.entries(p.disclose).map(([ns, elements]) => [
      ns,
      Object.fromEntries(elements.map((e) => [e, false])),
    ]),
  );
  const deviceRequest = DeviceRequest.create({
    docRequests: [DocRequest.create({ itemsRequest: ItemsRequest.create({ docType, namespaces }) })],
  });
  const jwk = p.devicePrivateKey;
  const signingKey = CoseKey.create({
    keyType: 2,
    curve: 1,
    algorithm: p.alg ?? -7,
    x: new Uint8Array(Buffer.from(jwk.x as string, 'base64url')),
    y: new Uint8Array(Buffer.from(jwk.y as string, 'base64url')),
    d: new Uint8Array(Buffer.from(jwk.d as string, 'base64url')),
  });
  const sessionTranscript =
    p.sessionTranscript instanceof SessionTranscript
      ? p.sessionTranscript
      : new GivenSessionTranscript(p.sessionTranscript);
  const response = await DeviceResponse.createWithDeviceRequest(
    { deviceRequest, sessionTranscript, issuerSigned: [issuerSigned], signature: { signingKey } },
    context(jwk),
  );
  return response.encode();
}

/** The crypto context of a verifier on @owf/mdoc, for its SessionTranscript builders. */
export const mdocCrypto: Pick<MdocContext, 'crypto'> = context({});

/**
 * The OID4VP 1.0 B.2.6.2 transcript a wallet computes for a request it got over the Digital
 * Credentials API, by @owf/mdoc: the origin the browser reported, the request's nonce, and the
 * thumbprint of its response encryption key (dc_api.jwt) when it has one.
 */
export async function oid4vpDcApiTranscript(
  origin: string,
  request: { nonce: string; client_metadata?: { jwks?: { keys: JWK[] } } },
): Promise<SessionTranscript> {
  const [encryptionKey] = request.client_metadata?.jwks?.keys ?? [];
  const thumbprint = encryptionKey && (await calculateJwkThumbprint(encryptionKey));
  return SessionTranscript.forOid4VpDcApi(
    {
      origin,
      nonce: request.nonce,
      ...(thumbprint ? { jwkThumbprint: new Uint8Array(Buffer.from(thumbprint, 'base64url')) } : {}),
    },
    mdocCrypto,
  );
}
