import type { Request, Response } from 'express';
import { audienceOf, sendOAuthErrorTo } from '../http/audience.js';
import { Problem } from '../http/problem.js';
import { sendProblem } from '../http/problem-renderer.js';
import { OAuthError } from '../oid4vci/oauth-error.js';
import { ScimError, sendScimError } from '../scim/scim-error.js';

/**
 * 429 with `Retry-After` (seconds), in the format of whoever the route answers: SCIM errors
 * (`scimType` tooMany) for SCIM clients, OAuth `{ error, error_description }` for wallets and relying
 * parties, the HTML error page for a browser on the pages, problem details for the integrator and
 * admin APIs.
 */
export function sendTooManyRequests(req: Request, res: Response, retryAfterSeconds: number, what: string) {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  const detail = `too many ${what}; retry after ${retryAfterSeconds} s`;
  const audience = audienceOf(req);
  if (audience === 'scim') return sendScimError(res, new ScimError(429, detail, 'tooMany'));
  if (audience === 'oauth' || audience === 'page')
    return sendOAuthErrorTo(req, res, new OAuthError(429, 'too_many_requests', detail));
  sendProblem(res, new Problem(429, 'too-many-requests', 'Too many requests', detail));
}
