import type { KeyObject } from 'node:crypto';
import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import { type CborValue, RawCbor } from './cbor-values.js';
import { coseSign1Verifies, readCoseSign1 } from './cose-sign1.js';
import { embedCbor, encodeCbor } from './encode-cbor.js';
import { embeddedOf, field, mapOf } from './read-cbor.js';

/**
 * Mdoc authentication (ISO 18013-5 9.1.3): the DeviceSignature, a COSE_Sign1 with a detached payload,
 * over DeviceAuthenticationBytes = `#6.24(["DeviceAuthentication", SessionTranscript, DocType,
 * DeviceNameSpacesBytes])`, verified with the device key the MSO names. The SessionTranscript is the
 * verifier's (it binds the signature to this request: client, nonce, response URI or origin), the
 * DeviceNameSpacesBytes are taken as received.
 *
 * Refused: no deviceSigned or deviceAuth (`missing_key_binding`); a DeviceMac, which needs an
 * ephemeral reader key that OpenID4VP and Annex C sessions do not have (`missing_key_binding`);
 * device-signed data elements (`malformed`: this verifier accepts only issuer-signed elements, and
 * our MSOs authorise none); a signature that does not verify (`invalid_signature`).
 */
export function verifyDeviceSignature(
  deviceSigned: CborValue,
  o: { docType: string; sessionTranscript: Uint8Array; deviceKey: KeyObject; allowedAlgs: readonly number[] },
): void {
  check(
    deviceSigned !== undefined,
    'missing_key_binding',
    'the document has no deviceSigned: the holder did not prove possession of the device key',
  );
  const signed = mapOf(deviceSigned, 'deviceSigned');
  const nameSpacesBytes = field(signed, 'nameSpaces', 'deviceSigned');
  const nameSpaces = mapOf(
    embeddedOf(nameSpacesBytes, 'deviceSigned.nameSpaces').item,
    'deviceSigned.nameSpaces',
  );
  check(
    [...nameSpaces.values()].every((elements) => elements instanceof Map && elements.size === 0),
    'malformed',
    'the document carries device-signed data elements, which this verifier does not accept',
  );
  const deviceAuth = mapOf(field(signed, 'deviceAuth', 'deviceSigned'), 'deviceSigned.deviceAuth');
  const signature = deviceAuth.get('deviceSignature');
  if (signature === undefined)
    reject(
      'missing_key_binding',
      deviceAuth.has('deviceMac')
        ? 'the document is authenticated by a DeviceMac, which needs an ephemeral reader key this session does not have; a DeviceSignature is required'
        : 'deviceAuth has neither a deviceSignature nor a deviceMac',
    );
  const sign1 = readCoseSign1(signature, 'the device signature', o.allowedAlgs);
  check(sign1.payload === null, 'malformed', 'the device signature has a payload (it must be detached)');
  const deviceAuthentication = embedCbor(
    encodeCbor(['DeviceAuthentication', new RawCbor(o.sessionTranscript), o.docType, nameSpacesBytes]),
  );
  check(
    coseSign1Verifies(sign1, deviceAuthentication.encoded, o.deviceKey),
    'invalid_signature',
    'the device signature does not verify with the MSO device key over this session transcript',
  );
}
