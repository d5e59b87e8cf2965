import type { RequestValidationError } from '@ts-rest/express';
import type { Response } from 'express';
import { fieldErrors } from '../http/zod-errors.js';
import { malformedRequest } from './malformed-request.js';
import { sendOAuthError } from './oauth-error.js';

/**
 * ts-rest's request validation for the OAuth-family endpoints: a malformed request gets the error
 * code of the endpoint it was sent to (OID4VCI credential and notification have their own), with
 * each bad field named.
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
  sendOAuthError(res, malformedRequest(req.path, 400, detail || 'malformed request'));
}
