import type { CredentialQuery } from '../../../contract/oid4vp/dcql-query.js';
import { checkProfileAlg, checkProfileTyp } from '../../oid4vp/verification/check-haip-profile.js';
import { checkStatus, readStatusReference } from '../../oid4vp/verification/check-status.js';
import { checkTrustedAuthorities } from '../../oid4vp/verification/check-trusted-authorities.js';
import { checkValidityClaims } from '../../oid4vp/verification/check-validity.js';
import { verifyIssuerSignature } from '../../oid4vp/verification/issuer-trust.js';
import { decodeJws, isObject, publicJwk } from '../../oid4vp/verification/jws.js';
import { checkRequestedClaims, checkVct } from '../../oid4vp/verification/match-dcql.js';
import { check } from '../../oid4vp/verification/presentation-error.js';
import type { Checks, TransactionDataHashes, VerifiedCredential } from '../../oid4vp/verification/types.js';
import { ISSUER_SERVICE_TYPES } from '../../trust/service-types.js';
import { checkKeyBinding } from './check-key-binding.js';
import { applyDisclosures, holdsDigests, splitSdJwt } from './sd-jwt.js';

/** `typ` of an SD-JWT VC; `vc+sd-jwt` is its name until late 2024, still accepted. */
export const SD_JWT_VC_TYPES = ['dc+sd-jwt', 'vc+sd-jwt'];

/** Claims that must be issuer-signed in the clear, never (in part) disclosed (SD-JWT VC, "Registered JWT Claims"). */
const NEVER_DISCLOSED = ['iss', 'nbf', 'exp', 'cnf', 'vct', 'vct#integrity', 'aka_vcts', 'status'];

/** Technical claims left out of `claims` in the result (the holder key and status are checked here). */
const NOT_REPORTED = ['cnf', 'status'];

/**
 * Verifies one `dc+sd-jwt` presentation (OID4VP 1.0 §B.3, SD-JWT VC "Verification and Processing", RFC 9901 §7): the issuer
 * signature by its `x5c` chain to a trust anchor or with a trusted key of `iss`, the query's
 * `trusted_authorities`, the disclosures, `vct` against the query, the
 * validity period, holder binding (KB-JWT signed by `cnf.jwk`, for this nonce, client_id, and SD-JWT;
 * required unless the query sets `require_cryptographic_holder_binding: false`; checked whenever
 * present), the requested claims, and last the status list.
 */
export async function verifySdJwtPresentation(
  presentation: unknown,
  query: CredentialQuery,
  checks: Checks,
): Promise<VerifiedCredential> {
  check(typeof presentation === 'string', 'malformed', 'an SD-JWT presentation is not a string');
  const parts = splitSdJwt(presentation);
  const jwt = decodeJws(parts.issuerJwt, 'the issuer-signed JWT');
  check(
    SD_JWT_VC_TYPES.includes(jwt.header.typ as string),
    'unsupported_format',
    `typ ${String(jwt.header.typ)} is not dc+sd-jwt`,
  );
  checkProfileTyp(jwt, checks);
  checkProfileAlg(jwt, checks, 'the issuer-signed JWT');
  const signed = jwt.payload;
  const iss = signed.iss;
  check(typeof iss === 'string' && iss, 'malformed', 'the credential has no iss');
  // The type a trust source may vouch for is the one the issuer signed (a non-string vct fails checkVct).
  const signedVct = typeof signed.vct === 'string' ? signed.vct : '';
  const issuer = await verifyIssuerSignature(jwt, iss, checks, `the credential of ${iss}`, {
    serviceTypes: ISSUER_SERVICE_TYPES,
    vct: signedVct,
  });
  checkTrustedAuthorities(query, issuer);

  const sdAlg = signed._sd_alg ?? 'sha-256';
  check(typeof sdAlg === 'string', 'malformed', '_sd_alg is not a string');
  for (const name of NEVER_DISCLOSED)
    check(!holdsDigests(signed[name]), 'malformed', `${name} must not be selectively disclosable`);
  const processed = applyDisclosures(signed, parts.disclosures, sdAlg);
  for (const name of NEVER_DISCLOSED)
    check(
      Object.hasOwn(signed, name) || !Object.hasOwn(processed, name),
      'malformed',
      `${name} must not be selectively disclosed`,
    );

  const vct = signed.vct;
  check(typeof vct === 'string' && vct, 'malformed', 'the credential has no vct');
  checkVct(vct, signed.aka_vcts, query);
  const exp = checkValidityClaims(processed, checks);

  const cnf = signed.cnf;
  const holderKey = isObject(cnf) && cnf.jwk !== undefined ? publicJwk(cnf.jwk, 'cnf.jwk') : undefined;
  // HAIP 1.0 section 6.1.1.1: a KB-JWT always, whatever the query says.
  const bindingRequired = Boolean(checks.profile) || query.require_cryptographic_holder_binding !== false;
  if (bindingRequired) {
    check(holderKey, 'missing_key_binding', 'the credential has no cnf.jwk to bind a presentation to');
    check(parts.keyBindingJwt, 'missing_key_binding', 'the presentation has no KB-JWT');
  }
  let transactionDataHashes: TransactionDataHashes | undefined;
  if (parts.keyBindingJwt) {
    check(holderKey, 'missing_key_binding', 'a KB-JWT came with a credential without cnf.jwk');
    transactionDataHashes = await checkKeyBinding(
      { keyBindingJwt: parts.keyBindingJwt, holderKey, sdJwt: parts.sdJwt, sdAlg },
      checks,
    );
  }

  checkRequestedClaims(processed, query);
  const statusRef = readStatusReference(signed);
  if (statusRef) await checkStatus(statusRef, iss, issuer, checks);

  const claims = Object.fromEntries(Object.entries(processed).filter(([k]) => !NOT_REPORTED.includes(k)));
  return {
    queryId: query.id,
    format: 'dc+sd-jwt',
    issuer: iss,
    vct: signedVct,
    claims,
    ...(holderKey && parts.keyBindingJwt ? { holderKey } : {}),
    ...(transactionDataHashes ? { transactionDataHashes } : {}),
    ...(exp !== undefined ? { expiresAt: new Date(exp * 1000) } : {}),
    trust: issuer.trust,
    ...(statusRef ? { statusReference: { idx: statusRef.idx, uri: statusRef.uri } } : {}),
  };
}
