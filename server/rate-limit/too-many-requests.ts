import type { Request, Response } from 'express';
import { Problem } from '../http/problem.js';
import { sendProblem } from '../http/problem-renderer.js';
import { OAuthError, sendOAuthError } from '../oid4vci/oauth-error.js';
import { ScimError, sendScimError } from '../scim/scim-error.js';

const SCIM_PATH = /^\/tenants\/[^/]+\/scim\/v2(\/|$)/;
const OAUTH_PATH = /^\/(oid4vci|oid4vp|oauth2|\.well-known|credential-types|status-lists|api\/login)(\/|$)/;

/**
 * 429 with `Retry-After` (seconds), in the format of whoever the route answers: SCIM errors
 * (`scimType` tooMany) for SCIM clients, OAuth `{ error, error_description }` for wallets and relying
 * parties, problem details for the integrator and admin APIs.
 */
export function sendTooManyRequests(req: Request, res: Response, retryAfterSeconds: number, what: string) {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  const detail = `too many ${what}; retry after ${retryAfterSeconds} s`;
  const path = req.originalUrl.split('?')[0] ?? '';
  if (SCIM_PATH.test(path)) return sendScimError(res, new ScimError(429, detail, 'tooMany'));
  if (OAUTH_PATH.test(path)) return sendOAuthError(res, new OAuthError(429, 'too_many_requests', detail));
  sendProblem(res, new Problem(429, 'too-many-requests', 'Too many requests', detail));
}
