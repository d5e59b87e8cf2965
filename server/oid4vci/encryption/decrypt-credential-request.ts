import express, { type NextFunction, type Request, type Response } from 'express';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import {
  CREDENTIAL_ENCRYPTION_ALGS,
  CREDENTIAL_ENCRYPTION_ENCS,
} from '../../../contract/oid4vci/credential-encryption.js';
import type { Config } from '../../config.js';
import { unstorableTextIn } from '../../http/body-parsers.js';
import { invalidCredentialRequest, invalidEncryptionParameters } from '../oauth-error.js';
import { requestDecryptionKey } from './request-decryption-key.js';

/** Set on `res.locals` when the credential request came as a JWE: only then may it ask for an encrypted response. */
export const ENCRYPTED_REQUEST = 'credentialRequestEncrypted';

export const wasEncrypted = (res: Response) => res.locals[ENCRYPTED_REQUEST] === true;

const isJwt = (req: Request) => req.is('application/jwt') === 'application/jwt';

/**
 * OID4VCI 1.0 section 10: a credential request sent as `application/jwt` is a compact JWE to the
 * issuer's `credential_request_encryption` key (ECDH-ES, an advertised enc). It is opened here, in
 * front of the contract's validation, so that the route sees the same JSON request either way. A JWE
 * this issuer cannot open is `invalid_encryption_parameters`, before anything is read or spent.
 */
export function decryptCredentialRequest(config: Config) {
  const key = requestDecryptionKey(config);
  const parseText = express.text({ type: 'application/jwt', limit: '1mb' });
  const open = async (req: Request, res: Response) => {
    const jwe = typeof req.body === 'string' ? req.body.trim() : '';
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(jwe).kid;
    } catch {
      throw invalidEncryptionParameters('the application/jwt body is not a compact JWE');
    }
    if (kid !== undefined && kid !== key.publicJwk.kid)
      throw invalidEncryptionParameters(
        'the JWE is for another key (kid); use credential_request_encryption.jwks of the current metadata',
      );
    let plaintext: Uint8Array;
    try {
      ({ plaintext } = await compactDecrypt(jwe, key.privateKey, {
        keyManagementAlgorithms: [...CREDENTIAL_ENCRYPTION_ALGS],
        contentEncryptionAlgorithms: [...CREDENTIAL_ENCRYPTION_ENCS],
      }));
    } catch (e) {
      throw invalidEncryptionParameters(
        `the credential request JWE cannot be decrypted (ECDH-ES to our key, enc ${CREDENTIAL_ENCRYPTION_ENCS.join(' or ')}): ${(e as Error).message}`,
      );
    }
    let request: unknown;
    try {
      request = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
    } catch {
      throw invalidCredentialRequest('the decrypted credential request is not JSON');
    }
    if (!request || typeof request !== 'object' || Array.isArray(request))
      throw invalidCredentialRequest('the decrypted credential request is not a JSON object');
    const fault = unstorableTextIn(request);
    if (fault) throw invalidCredentialRequest(fault);
    req.body = request;
    res.locals[ENCRYPTED_REQUEST] = true;
  };
  return [
    parseText,
    (req: Request, res: Response, next: NextFunction) => {
      if (!isJwt(req)) return next();
      open(req, res).then(() => next(), next);
    },
  ];
}
