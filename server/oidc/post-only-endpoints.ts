import type { Express } from 'express';
import { malformedRequest } from '../oid4vci/malformed-request.js';
import { sendOAuthError } from '../oid4vci/oauth-error.js';

/** The authorization server's endpoints that take form POSTs only. */
const POST_ONLY = ['/oauth2/par', '/oauth2/token', '/oid4vci/v1/token'];

/**
 * RFC 9126 section 2.3 (PAR) and RFC 6749 section 3.2 (token endpoint) take POST only. Any other
 * method at these paths is told so, 405 with `Allow: POST` in the OAuth error format, rather than
 * getting the 404 of a path that does not exist: a client that sent a GET learns what to fix.
 * Mounted after the POST routes, so it sees only what they did not take.
 */
export function refuseOtherMethods(app: Express): void {
  app.all(POST_ONLY, (req, res) => {
    res.setHeader('Allow', 'POST');
    const detail = `${req.method} is not allowed here: send the request as a form POST`;
    sendOAuthError(res, malformedRequest(req.path, 405, detail));
  });
}
