import type { RequestValidationError } from '@ts-rest/express';
import type { Response } from 'express';
import { fieldErrors } from '../http/zod-errors.js';
import { malformedRequest } from './malformed-request.js';
import { invalidEncryptionParameters, sendOAuthError } from './oauth-error.js';

/**
 * ts-rest's request validation for the OAuth-family endpoints: a malformed request gets the error
 * code of the endpoint it was sent to (OID4VCI credential and notification have their own), with
 * each bad field named. Only the credential request has `credential_response_encryption`.
 */
export function oauthValidationError(
  err: RequestValidationError,
  req: { path: string },
  res: Response,
): void {
  const detail = [err.body, err.pathParams, err.query]
    .flatMap((e) => (e ? fieldErrors(e) : []))
    .map((f) => `${f.field}: ${f.message}`)
    .join('; ');
  // Section 8.3.1.2: bad encryption parameters have their own code, whatever else is wrong.
  const encryption = err.body?.issues.some((i) => i.path[0] === 'credential_response_encryption');
  sendOAuthError(
    res,
    encryption
      ? invalidEncryptionParameters(detail)
      : malformedRequest(req.path, 400, detail || 'malformed request'),
  );
}
