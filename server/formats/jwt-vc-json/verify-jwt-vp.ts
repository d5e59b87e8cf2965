import { base64url, calculateJwkThumbprint, type JWK } from 'jose';
import type { CredentialQuery } from '../../../contract/oid4vp/dcql-query.js';
import { checkStatus, readStatusReference } from '../../oid4vp/verification/check-status.js';
import { checkTransactionBinding } from '../../oid4vp/verification/check-transaction-binding.js';
import { checkTrustedAuthorities } from '../../oid4vp/verification/check-trusted-authorities.js';
import { checkValidityClaims, checkW3cValidity } from '../../oid4vp/verification/check-validity.js';
import { verifyIssuerSignature } from '../../oid4vp/verification/issuer-trust.js';
import {
  type DecodedJws,
  decodeJws,
  isObject,
  publicJwk,
  verifyWithKey,
} from '../../oid4vp/verification/jws.js';
import { checkRequestedClaims, checkW3cType } from '../../oid4vp/verification/match-dcql.js';
import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import type { Checks, VerifiedCredential } from '../../oid4vp/verification/types.js';
import { ISSUER_SERVICE_TYPES } from '../../trust/service-types.js';

const VP_TYPES = [undefined, 'JWT', 'vp+jwt'];
const VC_TYPES = [undefined, 'JWT', 'vc+jwt'];

/** The public key of a `did:jwk` (the DID is the base64url JWK; `#0` names its one key), if it is one. */
export function didJwkKey(did: unknown): JWK | undefined {
  if (typeof did !== 'string' || !did.startsWith('did:jwk:')) return undefined;
  try {
    const jwk = JSON.parse(new TextDecoder().decode(base64url.decode(did.slice(8).split('#')[0] ?? '')));
    return publicJwk(jwk, 'the did:jwk key');
  } catch {
    return reject('malformed', 'a did:jwk does not hold a public JWK');
  }
}

const thumbprint = (key: JWK) => calculateJwkThumbprint(key).catch(() => reject('malformed', 'a bad JWK'));

/** A `jwt_vc_json` credential (VCDM 1.1 JWT encoding, `vc` claim; or a VCDM 2.0 payload) with a trusted issuer. */
async function verifyJwtVc(compact: unknown, query: CredentialQuery, checks: Checks) {
  const jwt = decodeJws(compact, 'the credential');
  check(
    VC_TYPES.includes(jwt.header.typ as string),
    'unsupported_format',
    `credential typ ${String(jwt.header.typ)}`,
  );
  const { payload } = jwt;
  const vc = payload.vc ?? (payload.credentialSubject !== undefined ? payload : undefined);
  check(isObject(vc), 'malformed', 'the credential has no vc claim');
  const vcIssuer = isObject(vc.issuer) ? vc.issuer.id : vc.issuer;
  const iss = payload.iss ?? vcIssuer;
  check(typeof iss === 'string' && iss, 'malformed', 'the credential has no issuer');
  check(vcIssuer === undefined || vcIssuer === iss, 'malformed', `iss ${iss} differs from vc.issuer`);
  const issuer = await verifyIssuerSignature(jwt, iss, checks, `the credential of ${iss}`, {
    serviceTypes: ISSUER_SERVICE_TYPES,
    credential: true,
  });
  checkTrustedAuthorities(query, issuer);

  const exp = checkValidityClaims(payload, checks);
  checkW3cValidity(vc, checks);
  const types = typeof vc.type === 'string' ? [vc.type] : vc.type;
  check(
    Array.isArray(types) && types.every((t) => typeof t === 'string'),
    'malformed',
    'vc.type is not strings',
  );
  checkW3cType(types, query);
  return { payload, vc, iss, issuer, types, exp };
}

/** Identifiers and keys the VP signer proves control of: the header `jwk`, or a did:jwk in `kid`/`iss`. */
function presenterKey(vp: DecodedJws): { key: JWK; did?: string } {
  const did = [vp.header.kid, vp.payload.iss].find((v) => typeof v === 'string' && v.startsWith('did:jwk:'));
  const key = vp.header.jwk !== undefined ? publicJwk(vp.header.jwk, 'the VP header jwk') : didJwkKey(did);
  check(key, 'missing_key_binding', 'the VP names no key (header jwk or did:jwk) to verify it with');
  return { key, ...(typeof did === 'string' ? { did: did.split('#')[0] as string } : {}) };
}

/**
 * The credential is bound to the key that signed the VP: its `cnf.jwk` is that key, or its subject
 * (`sub`, `credentialSubject.id`) is the did:jwk of that key. Other DID methods are not resolved.
 */
async function checkHolder(
  payload: Record<string, unknown>,
  vc: Record<string, unknown>,
  holder: JWK,
  did?: string,
) {
  const cnf = isObject(payload.cnf) ? payload.cnf.jwk : undefined;
  if (cnf !== undefined && (await thumbprint(publicJwk(cnf, 'cnf.jwk'))) === (await thumbprint(holder)))
    return;
  const didKey = didJwkKey(did);
  const didIsHolder = didKey !== undefined && (await thumbprint(didKey)) === (await thumbprint(holder));
  const subjects = [vc.credentialSubject].flat().map((s) => (isObject(s) ? s.id : undefined));
  const named = [payload.sub, ...subjects].includes(did);
  check(didIsHolder && named, 'invalid_signature', 'the VP is not signed by the holder of the credential');
}

/**
 * Verifies one `jwt_vc_json` presentation (OID4VP 1.0 §B.1.3.1): a VP JWT signed by the holder, for
 * this `nonce` and `aud` (client_id), recent (`iat`), holding exactly one credential that a trusted
 * issuer signed, bound to the VP key, of an accepted type, valid now, with the requested claims and,
 * when it has a Token Status List `status`, not revoked. Without holder binding required by the query,
 * a bare credential JWT is accepted too.
 */
export async function verifyJwtVcPresentation(
  presentation: unknown,
  query: CredentialQuery,
  checks: Checks,
): Promise<VerifiedCredential> {
  check(
    typeof presentation === 'string' && !presentation.includes('~'),
    'malformed',
    'not a JWT presentation',
  );
  const outer = decodeJws(presentation, 'the presentation');
  const bindingRequired = query.require_cryptographic_holder_binding !== false;
  let credential: Awaited<ReturnType<typeof verifyJwtVc>>;
  let holderKey: JWK | undefined;
  if (outer.payload.vp !== undefined) {
    check(
      VP_TYPES.includes(outer.header.typ as string),
      'unsupported_format',
      `VP typ ${String(outer.header.typ)}`,
    );
    const { key, did } = presenterKey(outer);
    await verifyWithKey(outer, key, 'the VP');
    checkTransactionBinding(outer.payload, checks, 'the VP');
    const vp = outer.payload.vp;
    check(isObject(vp), 'malformed', 'vp is not an object');
    const inner = [vp.verifiableCredential].flat();
    check(inner.length === 1, 'malformed', `the VP holds ${inner.length} credentials, not one`);
    credential = await verifyJwtVc(inner[0], query, checks);
    await checkHolder(credential.payload, credential.vc, key, did);
    holderKey = key;
  } else {
    check(!bindingRequired, 'missing_key_binding', 'a credential was presented without a VP');
    credential = await verifyJwtVc(outer.compact, query, checks);
  }

  checkRequestedClaims(credential.vc, query);
  const statusRef = readStatusReference(credential.payload);
  if (statusRef) await checkStatus(statusRef, credential.iss, credential.issuer, checks);
  else
    check(
      credential.vc.credentialStatus === undefined,
      'status_unavailable',
      'credentialStatus is not supported',
    );

  return {
    queryId: query.id,
    format: 'jwt_vc_json',
    issuer: credential.iss,
    type: credential.types,
    claims: credential.vc,
    ...(holderKey ? { holderKey } : {}),
    ...(credential.exp !== undefined ? { expiresAt: new Date(credential.exp * 1000) } : {}),
    trust: credential.issuer.trust,
  };
}
