import { createPublicKey, type KeyObject } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Response } from 'express';
import { CompactEncrypt } from 'jose';
import { CREDENTIAL_ENCRYPTION_ENCS } from '../../../contract/oid4vci/credential-encryption.js';
import { CredentialResponse } from '../../../contract/oid4vci/credential-request.js';
import { invalidEncryptionParameters } from '../oauth-error.js';

/** How one credential response is to be encrypted (OID4VCI 1.0 section 8.2 `credential_response_encryption`). */
export interface ResponseEncryption {
  key: KeyObject;
  enc: string;
  kid?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks the wallet's `credential_response_encryption` before anything is issued: a public EC P-256
 * JWK for ECDH-ES (its `alg`, if any, ECDH-ES; section 10 makes the JWE's alg the JWK's), an
 * advertised `enc`, and no `zip` (none is advertised). Any fault is `invalid_encryption_parameters`.
 */
export function responseEncryptionOf(parameters: unknown): ResponseEncryption {
  if (!isRecord(parameters))
    throw invalidEncryptionParameters('credential_response_encryption must be an object with jwk and enc');
  const { jwk, enc, zip } = parameters;
  if (!isRecord(jwk)) throw invalidEncryptionParameters('credential_response_encryption.jwk is required');
  if (typeof enc !== 'string' || !(CREDENTIAL_ENCRYPTION_ENCS as readonly string[]).includes(enc))
    throw invalidEncryptionParameters(
      `credential_response_encryption.enc must be one of ${CREDENTIAL_ENCRYPTION_ENCS.join(', ')}`,
    );
  if (zip !== undefined)
    throw invalidEncryptionParameters('this issuer does not compress responses; leave out zip');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256')
    throw invalidEncryptionParameters('credential_response_encryption.jwk must be an EC P-256 key');
  if (jwk.d !== undefined)
    throw invalidEncryptionParameters('credential_response_encryption.jwk must be a public key (no d)');
  if (jwk.alg !== undefined && jwk.alg !== 'ECDH-ES')
    throw invalidEncryptionParameters('credential_response_encryption.jwk.alg must be ECDH-ES');
  if (jwk.use !== undefined && jwk.use !== 'enc')
    throw invalidEncryptionParameters('credential_response_encryption.jwk.use must be enc');
  if (jwk.kid !== undefined && typeof jwk.kid !== 'string')
    throw invalidEncryptionParameters('credential_response_encryption.jwk.kid must be a string');
  let key: KeyObject;
  try {
    // node:crypto refuses coordinates off the curve, so no invalid-curve point is ever used.
    key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } as never, format: 'jwk' });
  } catch {
    throw invalidEncryptionParameters('credential_response_encryption.jwk is not a valid P-256 public key');
  }
  return { key, enc, ...(typeof jwk.kid === 'string' ? { kid: jwk.kid } : {}) };
}

/** Section 10: the JSON response as a compact JWE, ECDH-ES with the wallet's enc, its kid named. */
export async function encryptResponse(body: unknown, how: ResponseEncryption): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: how.enc, ...(how.kid !== undefined ? { kid: how.kid } : {}) })
    .encrypt(how.key);
}

/**
 * The JWE as an `application/jwt` body of a ts-rest route: ts-rest sends a stream as it is, without
 * the JSON response validation (the route validates the plain response before encrypting it).
 */
export function jwtBody(res: Response, jwe: string): Readable {
  res.setHeader('Content-Type', 'application/jwt');
  return Readable.from([jwe]);
}

/**
 * The answer of the credential and deferred credential endpoints (sections 8.3 and 9): the message
 * as JSON, or, when the request asked for it, as a JWE to the wallet's key with the same status. A
 * credential response is checked against the contract before it is encrypted, as ts-rest checks the
 * plain ones.
 */
export const credentialAnswer =
  (res: Response, encryption: ResponseEncryption | undefined) =>
  async <S extends 200 | 202>(status: S, message: Record<string, unknown>) => {
    if (!encryption) return { status, body: message as never };
    const checked = status === 200 ? CredentialResponse.parse(message) : message;
    return { status, body: jwtBody(res, await encryptResponse(checked, encryption)) as never };
  };
