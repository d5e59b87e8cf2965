import type { JWK } from 'jose';
import type { Certificate } from '../../keys/x509-certificate.js';
import type { ValidatedChain } from '../../keys/x509-chain.js';
import { check, PresentationError, reject } from '../../oid4vp/verification/presentation-error.js';
import { parsedCertificate, type Trust } from '../../trust/trust.js';
import type { CredentialTrust } from '../../verification/issuer-trust.js';
import { P256_ALGS } from './cose-sign1.js';
import { decodeCborSafely, MDOC_CBOR_LIMITS } from './decode-cbor-safely.js';
import { arrayOf, field, mapOf, textOf, uintOf } from './read-cbor.js';
import { type RequestedElement, readIssuerSignedItems } from './read-issuer-signed-items.js';
import { verifyDeviceSignature } from './verify-device-signature.js';
import { verifyIssuerAuth } from './verify-issuer-auth.js';

export interface DeviceResponseChecks {
  /** The verifier's SessionTranscript bytes (session-transcript.ts), never one the wallet sent. */
  sessionTranscript: Uint8Array;
  /** The tenant's IACA roots: parsed, or DER / standard base64 (one that does not parse is left out). */
  trustAnchors?: readonly (Certificate | Uint8Array | string)[];
  /** The tenant's whole trust (server/trust): anchors and listed issuers; when given, `trustAnchors` is not read. */
  trust?: Trust;
  /** Seconds since the epoch (as the verifier's Checks.now). */
  now: number;
  skewSeconds: number;
  /** The doctype the query asked for (DCQL `meta.doctype_value`). */
  expectedDoctype: string;
  /** The data elements asked for; any other disclosed is refused. Undefined: all are taken. */
  requested?: readonly RequestedElement[];
  /** COSE algs accepted for the issuer and device signatures. Default ES256 (-7) and ESP256 (-9). */
  allowedAlgs?: readonly number[];
  /** Bytes a DeviceResponse may have. Default 256 KiB. */
  maxBytes?: number;
}

/** The one document of a DeviceResponse, verified. */
export interface VerifiedMdoc {
  doctype: string;
  /** The disclosed issuer-signed data elements, JSON-safe (see claimValueOf), by namespace. */
  claims: Record<string, Record<string, unknown>>;
  /** The holder's key the DeviceSignature verified with. */
  deviceKey: JWK;
  /** The document signer's chain as validated (leaf, certificates, IACA anchor, validUntil). */
  issuerChain: ValidatedChain;
  /** The trust path that accepted the document signer's chain. */
  issuerTrust: CredentialTrust;
  signedAt: Date;
  validFrom: Date;
  validUntil: Date;
  /** The Token Status List entry to check (its CWT or JWT form), when the MSO has one. */
  status?: { idx: number; uri: string };
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Verifies a DeviceResponse (ISO 18013-5 8.3.2.1.2.2 and 9.3.1) presented for one DCQL query of
 * format `mso_mdoc` (OpenID4VP 1.0 B.2; HAIP: one DeviceResponse per query, so exactly one document):
 * status 0, the document of the expected doctype, its issuer signature and x5chain to an IACA root,
 * the MSO's validity and docType, every disclosed element's digest, only requested elements, and the
 * device signature over the verifier's SessionTranscript. The status reference is returned, not
 * checked: the caller reads the list through its cache.
 *
 * Every failure is a PresentationError with its code; hostile input (malformed or oversized CBOR,
 * indefinite lengths, deep nesting, unknown tags, headers of the wrong type) is `malformed`.
 */
export function verifyDeviceResponse(
  deviceResponse: string | Uint8Array,
  checks: DeviceResponseChecks,
): VerifiedMdoc {
  try {
    return verify(deviceResponse, checks);
  } catch (e) {
    if (e instanceof PresentationError) throw e;
    // Nothing of ours should throw anything else on hostile input; if it does, it is still a refusal.
    return reject('malformed', `the DeviceResponse cannot be read: ${(e as Error)?.message ?? String(e)}`, e);
  }
}

function verify(input: string | Uint8Array, checks: DeviceResponseChecks): VerifiedMdoc {
  const maxBytes = checks.maxBytes ?? MDOC_CBOR_LIMITS.maxBytes;
  if (typeof input === 'string') {
    check(
      input.length <= Math.ceil((maxBytes * 4) / 3),
      'malformed',
      `the DeviceResponse is larger than ${maxBytes} bytes`,
    );
    check(BASE64URL.test(input), 'malformed', 'the DeviceResponse is not base64url');
  }
  const bytes = typeof input === 'string' ? new Uint8Array(Buffer.from(input, 'base64url')) : input;
  const response = mapOf(decodeCborSafely(bytes, 'the DeviceResponse', { maxBytes }), 'the DeviceResponse');
  const version = textOf(field(response, 'version', 'the DeviceResponse'), 'the DeviceResponse version');
  check(version.startsWith('1.'), 'malformed', `the DeviceResponse has version ${version}, not 1.x`);
  const status = uintOf(field(response, 'status', 'the DeviceResponse'), 'the DeviceResponse status');
  check(status === 0, 'malformed', `the DeviceResponse reports status ${status}, not OK (0)`);
  const documents = response.has('documents') ? arrayOf(response.get('documents'), 'documents') : [];
  check(documents.length > 0, 'missing_credential', 'the DeviceResponse has no document');
  check(documents.length === 1, 'malformed', `the DeviceResponse has ${documents.length} documents, not one`);
  const document = mapOf(documents[0], 'the document');
  const docType = textOf(field(document, 'docType', 'the document'), 'the docType');
  check(
    docType === checks.expectedDoctype,
    'wrong_type',
    `the document is a ${docType}, not the requested ${checks.expectedDoctype}`,
  );
  const issuerSigned = mapOf(field(document, 'issuerSigned', 'the document'), 'issuerSigned');
  const allowedAlgs = checks.allowedAlgs ?? P256_ALGS;
  const { mso, chain, trust } = verifyIssuerAuth(
    field(issuerSigned, 'issuerAuth', 'issuerSigned'),
    {
      trust: checks.trust ?? trustOfAnchors(checks.trustAnchors ?? []),
      doctype: docType,
      now: checks.now,
      skewSeconds: checks.skewSeconds,
      allowedAlgs,
    },
    'the issuerAuth',
  );
  check(
    mso.docType === docType,
    'wrong_type',
    `the MSO is for a ${mso.docType}, the document says ${docType}`,
  );
  const claims = readIssuerSignedItems(issuerSigned.get('nameSpaces'), mso, checks.requested);
  verifyDeviceSignature(document.get('deviceSigned'), {
    docType,
    sessionTranscript: checks.sessionTranscript,
    deviceKey: mso.deviceKey.key,
    allowedAlgs,
  });
  return {
    doctype: docType,
    claims,
    deviceKey: mso.deviceKey.jwk,
    issuerChain: chain,
    issuerTrust: trust,
    signedAt: mso.signed,
    validFrom: mso.validFrom,
    validUntil: mso.validUntil,
    ...(mso.status ? { status: mso.status } : {}),
  };
}

/** A trust of anchors alone (DER or base64 parsed once per process). */
function trustOfAnchors(given: NonNullable<DeviceResponseChecks['trustAnchors']>): Trust {
  const anchors = given.flatMap((anchor) => {
    if (typeof anchor !== 'string' && !(anchor instanceof Uint8Array)) return [anchor];
    const cert = parsedCertificate(
      typeof anchor === 'string' ? anchor : Buffer.from(anchor).toString('base64'),
    );
    return cert ? [cert] : [];
  });
  return { anchors, listed: [] };
}
