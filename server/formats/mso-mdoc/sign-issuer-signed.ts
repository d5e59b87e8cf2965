import { hash, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { type EmbeddedCbor, tdate } from './cbor-values.js';
import { coseKeyFromJwk } from './cose-key.js';
import { COSE_ALG, COSE_HEADER, type CoseEcdsaP256, sigStructure } from './cose-sign1.js';
import type { MdocSigningKey } from './document-signing-key.js';
import { embedCbor, encodeCbor } from './encode-cbor.js';

/** What one mdoc says, and about whom. */
export interface IssuerSignedInput {
  doctype: string;
  /**
   * Data elements by namespace. Values map to CBOR as JavaScript suggests (text, integers, floats,
   * booleans, null, arrays, objects and Maps, Uint8Array as byte strings, Date as tdate); wrap a
   * date string in `fullDate()` for a full-date (tag 1004), as mDL birth_date is.
   */
  namespaces: Record<string, Record<string, unknown>>;
  /** The holder's public P-256 key, from its proof: the key its device signatures verify with. */
  deviceKey: JWK;
  signedAt: Date;
  validFrom: Date;
  validUntil: Date;
  /** When the issuer expects to re-issue (MSO validityInfo expectedUpdate). */
  expectedUpdate?: Date;
  /** Its entry in a Token Status List (ISO 18013-5 second edition, the list's CBOR form). */
  status?: { idx: number; uri: string };
  /** COSE alg of the issuer signature: ES256 (-7, the default) or ESP256 (-9). */
  alg?: CoseEcdsaP256;
}

export interface SignedIssuerSigned {
  /** The CBOR IssuerSigned. */
  issuerSigned: Uint8Array;
  /** Its base64url: the `credential` of an OID4VCI Credential Response (OID4VCI 1.0 Appendix A.2.4). */
  credential: string;
}

const SALT_BYTES = 16;

/**
 * Signs an mdoc (ISO 18013-5 section 9.1.2): every data element becomes an IssuerSignedItem with a
 * 16-byte random salt and a random digestID, embedded (tag 24) as IssuerSignedItemBytes; the MSO
 * lists their SHA-256 digests, the holder's COSE_Key, the docType, the validity and the status
 * reference, and is signed by the document signer as an untagged COSE_Sign1 with protected
 * {alg} and unprotected {x5chain}: one certificate as a byte string, several as an array. No kid:
 * the chain names the key (and @owf/mdoc writes kid as text, which strict parsers refuse).
 *
 * Every structure is encoded once; the digests and the signature cover the very bytes returned.
 * Invalid input (an empty namespace, a private or non-P-256 device key, validity out of order)
 * throws a TypeError or RangeError: it is the caller's to prevent.
 */
export async function signIssuerSigned(
  key: MdocSigningKey,
  input: IssuerSignedInput,
): Promise<SignedIssuerSigned> {
  checkInput(key, input);
  const namespaces = Object.entries(input.namespaces);
  const count = namespaces.reduce((n, [, elements]) => n + Object.keys(elements).length, 0);
  // One draw of randomness for all salts and digestIDs: a call per element would cost more than the rest.
  const random = randomBytes(count * (SALT_BYTES + 4));
  let offset = 0;
  const issuerNameSpaces = new Map<string, EmbeddedCbor[]>();
  const valueDigests = new Map<string, Map<number, Uint8Array>>();
  for (const [namespace, elements] of namespaces) {
    const items: EmbeddedCbor[] = [];
    const digests = new Map<number, Uint8Array>();
    for (const [elementIdentifier, elementValue] of Object.entries(elements)) {
      // digestIDs are random (ISO 18013-5 9.1.2.5: unrelated to the element), unique per namespace.
      let digestID = random.readUInt32BE(offset + SALT_BYTES) >>> 1;
      while (digests.has(digestID)) digestID = randomBytes(4).readUInt32BE(0) >>> 1;
      const salt = random.subarray(offset, offset + SALT_BYTES);
      offset += SALT_BYTES + 4;
      const item = embedCbor(encodeCbor({ digestID, random: salt, elementIdentifier, elementValue }));
      items.push(item);
      digests.set(digestID, hash('sha256', item.encoded, 'buffer'));
    }
    issuerNameSpaces.set(namespace, items);
    valueDigests.set(namespace, digests);
  }
  const mso = embedCbor(
    encodeCbor({
      version: '1.0',
      digestAlgorithm: 'SHA-256',
      valueDigests,
      deviceKeyInfo: { deviceKey: coseKeyFromJwk(input.deviceKey) },
      docType: input.doctype,
      validityInfo: {
        signed: tdate(input.signedAt),
        validFrom: tdate(input.validFrom),
        validUntil: tdate(input.validUntil),
        ...(input.expectedUpdate ? { expectedUpdate: tdate(input.expectedUpdate) } : {}),
      },
      ...(input.status ? { status: { status_list: { idx: input.status.idx, uri: input.status.uri } } } : {}),
    }),
  ).encoded;
  const protectedBytes = encodeCbor(new Map([[COSE_HEADER.alg, input.alg ?? COSE_ALG.ES256]]));
  const signature = await key.sign(sigStructure(protectedBytes, mso));
  if (signature.length !== 64)
    throw new Error('the document signer did not return a 64-byte ES256 signature');
  const x5chain = key.x5chain.length === 1 ? key.x5chain[0] : [...key.x5chain];
  const issuerAuth = [protectedBytes, new Map([[COSE_HEADER.x5chain, x5chain]]), mso, signature];
  const issuerSigned = encodeCbor({ nameSpaces: issuerNameSpaces, issuerAuth });
  return { issuerSigned, credential: Buffer.from(issuerSigned).toString('base64url') };
}

function checkInput(key: MdocSigningKey, input: IssuerSignedInput) {
  if (key.x5chain.length === 0) throw new TypeError('the document signer has no certificate');
  if (typeof input.doctype !== 'string' || input.doctype === '') throw new TypeError('the doctype is empty');
  const namespaces = Object.entries(input.namespaces);
  if (namespaces.length === 0) throw new TypeError('an mdoc needs at least one namespace');
  for (const [namespace, elements] of namespaces)
    if (namespace === '' || Object.keys(elements).length === 0 || Object.keys(elements).includes(''))
      throw new TypeError(`namespace "${namespace}" is empty or has an element without a name`);
  const { signedAt, validFrom, validUntil } = input;
  if (!(validFrom.getTime() >= signedAt.getTime() && validUntil.getTime() > validFrom.getTime()))
    throw new RangeError('the validity must run signedAt <= validFrom < validUntil');
  if (input.status && !(Number.isSafeInteger(input.status.idx) && input.status.idx >= 0 && input.status.uri))
    throw new RangeError('the status needs a non-negative integer idx and a uri');
  if (input.alg !== undefined && input.alg !== COSE_ALG.ES256 && input.alg !== COSE_ALG.ESP256)
    throw new RangeError(`COSE alg ${input.alg} is not ES256 (-7) or ESP256 (-9)`);
}
