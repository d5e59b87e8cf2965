import type { JsonWebKey } from 'node:crypto';
import { createPublicKey, hash, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { decode, embed, encode, Raw, Tag } from './minimal-cbor.js';
import { MINIMAL_ISSUER } from './minimal-sd-jwt.js';

/**
 * The least code that issues and checks an ISO mdoc with node:crypto alone, as minimal-sd-jwt.ts
 * does for SD-JWT VCs: IssuerSignedItems with salts and digests, the MSO signed as an ES256
 * COSE_Sign1 with its x5chain; a DeviceResponse read back, its issuer signature, digests and device
 * signature over the OpenID4VP SessionTranscript checked; a CWT status list signed and read.
 */
export const MDOC_DOCTYPE = 'eu.credservice.employee.1';
/** The minimal verifier's client_id and response_uri, which its SessionTranscripts bind. */
export const MDOC_CLIENT_ID = MINIMAL_ISSUER;
export const MDOC_RESPONSE_URI = `${MINIMAL_ISSUER}/present-mdoc`;
const COSE = { alg: 1, typ: 16, x5chain: 33, ES256: -7 } as const;
const PROTECTED_ES256 = encode(new Map([[COSE.alg, COSE.ES256]]));
const YEAR_MS = 31_536_000_000;

type CborMap = Map<unknown, unknown>;
const sha256 = (data: Uint8Array) => hash('sha256', data, 'buffer');
const tdate = (ms: number) => new Tag(0, `${new Date(ms).toISOString().slice(0, 19)}Z`);
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');

export const sigStructure = (protectedBytes: Uint8Array, payload: Uint8Array) =>
  encode(['Signature1', protectedBytes, new Uint8Array(0), payload]);
export const es256 = (key: KeyObject, data: Uint8Array) =>
  sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
export const es256Verifies = (key: KeyObject, data: Uint8Array, signature: Uint8Array) =>
  verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);

/**
 * OpenID4VP 1.0 B.2.6.1: the SessionTranscript of an answer to a response_uri; the thumbprint of the
 * verifier's encryption key when the answer is encrypted (direct_post.jwt), else null.
 */
export const oid4vpTranscript = (
  clientId: string,
  nonce: string,
  responseUri: string,
  thumbprint: Uint8Array | null = null,
) => encode([null, null, ['OpenID4VPHandover', sha256(encode([clientId, nonce, thumbprint, responseUri]))]]);

/** An IssuerSigned for `elements` of the one namespace, bound to `device`; its base64url. */
export function signIssuerSigned(
  key: KeyObject,
  x5chain: Uint8Array,
  device: JsonWebKey,
  elements: Record<string, unknown>,
  status: { idx: number; uri: string },
): string {
  const names = Object.keys(elements);
  const random = randomBytes(names.length * 20);
  const digests = new Map<number, Uint8Array>();
  const items = names.map((elementIdentifier, i) => {
    const digestID = random.readUInt32BE(i * 20 + 16) >>> 1;
    const salt = random.subarray(i * 20, i * 20 + 16);
    const item = embed({
      digestID,
      random: salt,
      elementIdentifier,
      elementValue: elements[elementIdentifier],
    });
    digests.set(digestID, sha256(item.encoded as Uint8Array));
    return item;
  });
  const now = Date.now();
  const coordinate = (c?: string) => Buffer.from(c ?? '', 'base64url');
  const mso = embed({
    version: '1.0',
    digestAlgorithm: 'SHA-256',
    valueDigests: new Map([[MDOC_DOCTYPE, digests]]),
    deviceKeyInfo: {
      deviceKey: new Map<number, unknown>([
        [1, 2],
        [-1, 1],
        [-2, coordinate(device.x)],
        [-3, coordinate(device.y)],
      ]),
    },
    docType: MDOC_DOCTYPE,
    validityInfo: { signed: tdate(now), validFrom: tdate(now), validUntil: tdate(now + YEAR_MS) },
    status: { status_list: status },
  }).encoded as Uint8Array;
  const signature = es256(key, sigStructure(PROTECTED_ES256, mso));
  const issuerAuth = [PROTECTED_ES256, new Map([[COSE.x5chain, x5chain]]), mso, signature];
  return b64(encode({ nameSpaces: new Map([[MDOC_DOCTYPE, items]]), issuerAuth }));
}

const chainOf = (headers: CborMap) => {
  const chain = headers.get(COSE.x5chain);
  return chain instanceof Uint8Array ? [chain] : (chain as Uint8Array[]);
};

/**
 * The status reference of a DeviceResponse whose one document verifies: the issuer signature with
 * the key `trust` finds for its x5chain, the MSO's doctype and validity, every disclosed digest, and
 * the device signature over `transcript`. Undefined when anything does not.
 */
export function verifyDeviceResponse(
  deviceResponse: string,
  transcript: Uint8Array,
  trust: (x5chain: Uint8Array[]) => KeyObject | undefined,
): { idx: number; uri: string } | undefined {
  const response = decode(Buffer.from(deviceResponse, 'base64url')) as CborMap;
  const documents = response.get('documents') as CborMap[];
  if (
    !String(response.get('version')).startsWith('1.') ||
    response.get('status') !== 0 ||
    documents.length !== 1
  )
    return undefined;
  const document = documents[0] as CborMap;
  if (document.get('docType') !== MDOC_DOCTYPE) return undefined;
  const issuerSigned = document.get('issuerSigned') as CborMap;
  const [prot, unprotected, payload, signature] = issuerSigned.get('issuerAuth') as Uint8Array[];
  if ((decode(prot as Uint8Array) as CborMap).get(COSE.alg) !== COSE.ES256) return undefined;
  const issuerKey = trust(chainOf(unprotected as unknown as CborMap));
  if (
    !issuerKey ||
    !es256Verifies(
      issuerKey,
      sigStructure(prot as Uint8Array, payload as Uint8Array),
      signature as Uint8Array,
    )
  )
    return undefined;
  const mso = decode((decode(payload as Uint8Array) as Tag).value as Uint8Array) as CborMap;
  const validity = mso.get('validityInfo') as Map<string, Tag>;
  const now = Date.now();
  const from = Date.parse(validity.get('validFrom')?.value as string);
  const until = Date.parse(validity.get('validUntil')?.value as string);
  if (mso.get('docType') !== MDOC_DOCTYPE || !(from <= now && now <= until)) return undefined;
  const committed = (mso.get('valueDigests') as Map<string, Map<number, Uint8Array>>).get(MDOC_DOCTYPE);
  for (const item of (issuerSigned.get('nameSpaces') as Map<string, Tag[]>).get(MDOC_DOCTYPE) ?? []) {
    const digestID = (decode(item.value as Uint8Array) as CborMap).get('digestID') as number;
    const digest = committed?.get(digestID);
    if (!digest || !sha256(item.encoded as Uint8Array).equals(digest)) return undefined;
  }
  const deviceKey = (mso.get('deviceKeyInfo') as CborMap).get('deviceKey') as CborMap;
  const holder = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64(deviceKey.get(-2) as Uint8Array),
      y: b64(deviceKey.get(-3) as Uint8Array),
    },
    format: 'jwk',
  });
  const deviceSigned = document.get('deviceSigned') as CborMap;
  const deviceAuth = deviceSigned.get('deviceAuth') as CborMap;
  const [deviceProt, , detached, deviceSignature] = deviceAuth.get('deviceSignature') as Uint8Array[];
  if (detached !== null || (decode(deviceProt as Uint8Array) as CborMap).get(COSE.alg) !== COSE.ES256)
    return undefined;
  const authentication = embed([
    'DeviceAuthentication',
    new Raw(transcript),
    MDOC_DOCTYPE,
    deviceSigned.get('nameSpaces'),
  ]);
  if (
    !es256Verifies(
      holder,
      sigStructure(deviceProt as Uint8Array, authentication.encoded as Uint8Array),
      deviceSignature as Uint8Array,
    )
  )
    return undefined;
  const ref = (mso.get('status') as CborMap | undefined)?.get('status_list') as CborMap | undefined;
  return ref && { idx: ref.get('idx') as number, uri: ref.get('uri') as string };
}
