import { hash } from 'node:crypto';
import { ChainError } from '../../keys/chain-error.js';
import type { ValidatedChain } from '../../keys/x509-chain.js';
import { check, PresentationError, reject } from '../../oid4vp/verification/presentation-error.js';
import { ISSUER_SERVICE_TYPES } from '../../trust/service-types.js';
import { type Trust, trustKey } from '../../trust/trust.js';
import { type TrustedChain, trustChain } from '../../trust/trust-chain.js';
import type { CborValue } from './cbor-values.js';
import { coseSign1Verifies, readCoseSign1 } from './cose-sign1.js';
import { type MobileSecurityObject, readMobileSecurityObject } from './read-mobile-security-object.js';

export interface IssuerAuthChecks {
  trust: Trust;
  /** The document's doctype: a trust source restricted to doctypes must list it. */
  doctype: string;
  /** Seconds since the epoch. */
  now: number;
  skewSeconds: number;
  allowedAlgs: readonly number[];
}

export interface VerifiedIssuerAuth {
  mso: MobileSecurityObject;
  /** The document signer's chain as validated, to its IACA anchor or listed entity. */
  chain: ValidatedChain;
  trust: TrustedChain['trust'];
}

/**
 * Verifies an IssuerAuth (ISO 18013-5 9.1.2.4 and 9.3.1 steps 1-4): the x5chain leads to one of the
 * anchors (IACA roots) or to an issuer a trust source lists for the doctype, and is valid now, the document signer's key verifies the COSE_Sign1, and the
 * MSO it signed is valid now and was signed while the document signer's certificate was. Codes:
 * `x5c_required` without x5chain, the chain's own codes (certificate_untrusted, _expired, ...),
 * `invalid_signature`, `not_yet_valid`, `expired`, `certificate_invalid`, `malformed`.
 */
export function verifyIssuerAuth(
  value: CborValue,
  checks: IssuerAuthChecks,
  what: string,
): VerifiedIssuerAuth {
  const sign1 = readCoseSign1(value, what, checks.allowedAlgs);
  if (!sign1.x5chain)
    reject('x5c_required', `${what} has no x5chain: an mdoc's issuer is known by its certificate`);
  const { chain, trust } = validatedChain(sign1.x5chain, checks);
  const key = chain.leaf.node.publicKey;
  check(
    key.asymmetricKeyDetails?.namedCurve === 'prime256v1',
    'unsupported_algorithm',
    `the document signer certificate of ${what} does not hold a P-256 key`,
  );
  check(sign1.payload !== null, 'malformed', `${what} has no payload (the MSO)`);
  check(
    coseSign1Verifies(sign1, sign1.payload, key),
    'invalid_signature',
    `the issuer signature of ${what} does not verify with its document signer certificate`,
  );
  const mso = readMobileSecurityObject(sign1.payload, what);
  const signed = mso.signed.getTime() / 1000;
  const { leaf } = chain;
  check(
    signed >= leaf.notBefore - checks.skewSeconds && signed <= leaf.notAfter + checks.skewSeconds,
    'certificate_invalid',
    `the MSO of ${what} was signed at ${mso.signed.toISOString()}, outside the validity of its document signer certificate`,
  );
  check(
    mso.validFrom.getTime() / 1000 <= checks.now + checks.skewSeconds,
    'not_yet_valid',
    `the mdoc is valid from ${mso.validFrom.toISOString()}`,
  );
  check(
    mso.validUntil.getTime() / 1000 >= checks.now - checks.skewSeconds,
    'expired',
    `the mdoc was valid until ${mso.validUntil.toISOString()}`,
  );
  return { mso, chain, trust };
}

/** Chains that validated, by their certificates and anchors: the same few document signers sign every mdoc. */
const validatedChains = new Map<string, { trusted: TrustedChain; notBefore: number }>();
const MAX_CACHED_CHAINS = 256;

/**
 * validateChain over DER certificates, its ChainError as the PresentationError of the same code.
 * A chain that validated against the same anchors is taken from a cache while all its certificates
 * (and its anchor) are still within their validity: parsing the certificates costs more than the
 * rest of the verification together, and nothing else in the result depends on the time.
 */
function validatedChain(x5chain: Uint8Array[], checks: IssuerAuthChecks): TrustedChain {
  const { now, skewSeconds } = checks;
  // DER is self-delimiting, so the concatenation names the chain unambiguously.
  const key = `${hash('sha256', Buffer.concat(x5chain), 'hex')}|${checks.doctype}|${trustKey(checks.trust)}`;
  const cached = validatedChains.get(key);
  if (cached && cached.notBefore <= now + skewSeconds && cached.trusted.chain.validUntil >= now - skewSeconds)
    return cached.trusted;
  let trusted: TrustedChain;
  try {
    trusted = trustChain(
      x5chain.map((der) => Buffer.from(der).toString('base64')),
      checks.trust,
      { serviceTypes: ISSUER_SERVICE_TYPES, doctype: checks.doctype },
      { now, skewSeconds },
    );
  } catch (e) {
    if (e instanceof ChainError) throw new PresentationError(e.code, `the x5chain: ${e.message}`);
    throw e;
  }
  const { chain } = trusted;
  const notBefore = Math.max(chain.anchor.notBefore, ...chain.certificates.map((c) => c.notBefore));
  if (validatedChains.size >= MAX_CACHED_CHAINS)
    validatedChains.delete(validatedChains.keys().next().value as string);
  validatedChains.set(key, { trusted, notBefore });
  return trusted;
}
