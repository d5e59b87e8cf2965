import type { Request, Response } from 'express';
import { malformedRequest } from '../oid4vci/malformed-request.js';
import { type OAuthError, sendOAuthError } from '../oid4vci/oauth-error.js';
import { ScimError, sendScimError } from '../scim/scim-error.js';
import { renderErrorPage } from '../tenants/branded-page.js';
import type { ClientError } from './client-error.js';
import { problemOf } from './problem.js';
import { sendProblem } from './problem-renderer.js';

/**
 * Who a route answers, and so which error format it speaks: SCIM clients (RFC 7644 errors), wallets
 * and relying parties (OAuth `{ error, error_description }`), a person's browser on the pages (the
 * offer page, the authorization endpoint with its login and sign-in steps: an HTML page), and
 * everyone else, the integrator and admin APIs first (RFC 9457 problem details).
 */
export type Audience = 'scim' | 'page' | 'oauth' | 'problem';

const SCIM_PATH = /^\/tenants\/[^/]+\/scim\/v2(\/|$)/;
// Addresses a browser opens: what is under them is a page even when the path is not a route.
const PAGE_PATH = /^\/oauth2\/authorize(\/|$)|^\/oid4vci\/v1\/offer\/|^\/console(\/|$)/;
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
  if (PAGE_PATH.test(path)) return 'page';
  if (OAUTH_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return 'oauth';
  return 'problem';
}

/** The heading of an error page, by status: what the person can make of it. */
function pageHeading(status: number): string {
  if (status === 404) return 'Page not found';
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'Something went wrong';
  return 'This request cannot be completed';
}

/**
 * An OAuth error of a route, as its audience reads it: the branded HTML error page for a browser
 * page, else `{ error, error_description }`. Never cached either way.
 */
export function sendOAuthErrorTo(req: Request, res: Response, e: OAuthError): void {
  if (audienceOf(req) === 'page') {
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(e.status)
      .type('html')
      .send(renderErrorPage(e.error, e.description, pageHeading(e.status)));
  } else {
    sendOAuthError(res, e);
  }
}

/** Renders a ClientError in the format of the request's audience. */
export function sendClientError(req: Request, res: Response, e: ClientError): void {
  const audience = audienceOf(req);
  if (audience === 'scim') {
    sendScimError(res, new ScimError(e.status, e.detail, e.status === 400 ? 'invalidSyntax' : undefined));
  } else if (audience === 'oauth' || audience === 'page') {
    // invalid_request, or the endpoint's own code (OID4VCI credential and notification endpoints).
    sendOAuthErrorTo(req, res, malformedRequest(req.originalUrl.split('?')[0] ?? '', e.status, e.detail));
  } else {
    sendProblem(res, problemOf(e));
  }
}
