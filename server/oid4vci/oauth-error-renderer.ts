import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../domain-errors.js';
import { sendClientError, sendOAuthErrorTo } from '../http/audience.js';
import { clientErrorOf } from '../http/client-error.js';
import {
  invalidRequest,
  notFoundError,
  OAuthError,
  serverError,
  temporarilyUnavailable,
} from './oauth-error.js';

/** A domain error as OAuth says it; a dependency gone for now is RFC 6749's temporarily_unavailable. */
const oauthErrorOfDomain = (err: DomainError) => {
  if (err.kind === 'not-found') return notFoundError(err.message);
  if (err.kind === 'unavailable') return temporarilyUnavailable(err.message);
  return invalidRequest(err.message);
};

/**
 * Error middleware for the OAuth-family routes: their errors as `{ error, error_description }`, or as
 * the HTML error page on the pages a browser opens (audience.ts).
 */
export const oauthErrorRenderer =
  (logger: Logger) => (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof OAuthError) return sendOAuthErrorTo(req, res, err);
    // A domain rule the request broke: OAuth has no finer code for it than invalid_request.
    if (err instanceof DomainError) return sendOAuthErrorTo(req, res, oauthErrorOfDomain(err));
    const client = clientErrorOf(err);
    if (client) return sendClientError(req, res, client);
    logger.error({ err, req: { id: req.id, method: req.method, url: req.path } }, 'unhandled error');
    sendOAuthErrorTo(req, res, serverError());
  };
