import type { Request, Response } from 'express';
import { malformedRequest } from '../oid4vci/malformed-request.js';
import { sendOAuthError } from '../oid4vci/oauth-error.js';
import { ScimError, sendScimError } from '../scim/scim-error.js';
import type { ClientError } from './client-error.js';
import { problemOf } from './problem.js';
import { sendProblem } from './problem-renderer.js';

/**
 * Who a route answers, and so which error format it speaks: SCIM clients (RFC 7644 errors), wallets,
 * relying parties and the login page (OAuth `{ error, error_description }`), and everyone else, the
 * integrator and admin APIs first (RFC 9457 problem details).
 */
export type Audience = 'scim' | 'oauth' | 'problem';

const SCIM_PATH = /^\/tenants\/[^/]+\/scim\/v2(\/|$)/;
export const OAUTH_PREFIXES = [
  '/oid4vci',
  '/oid4vp',
  '/oauth2',
  '/.well-known',
  '/credential-types',
  '/api/login',
];

/** The audience of a request, from its path as sent (before any router strips a mount point). */
export function audienceOf(req: Request): Audience {
  const path = req.originalUrl.split('?')[0] ?? '';
  if (SCIM_PATH.test(path)) return 'scim';
  if (OAUTH_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return 'oauth';
  return 'problem';
}

/** Renders a ClientError in the format of the request's audience. */
export function sendClientError(req: Request, res: Response, e: ClientError): void {
  const audience = audienceOf(req);
  if (audience === 'scim') {
    sendScimError(res, new ScimError(e.status, e.detail, e.status === 400 ? 'invalidSyntax' : undefined));
  } else if (audience === 'oauth') {
    // invalid_request, or the endpoint's own code (OID4VCI credential and notification endpoints).
    sendOAuthError(res, malformedRequest(req.originalUrl.split('?')[0] ?? '', e.status, e.detail));
  } else {
    sendProblem(res, problemOf(e));
  }
}
