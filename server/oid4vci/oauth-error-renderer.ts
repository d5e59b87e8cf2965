import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { invalidRequest, OAuthError, sendOAuthError, serverError } from './oauth-error.js';

/** Error middleware for the OAuth-family routes: their errors as `{ error, error_description }`. */
export const oauthErrorRenderer =
  (logger: Logger) => (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof OAuthError) return sendOAuthError(res, err);
    if ((err as { type?: string }).type === 'entity.parse.failed')
      return sendOAuthError(res, invalidRequest('the body is not valid JSON'));
    if ((err as { status?: number }).status === 413)
      return sendOAuthError(res, invalidRequest('the body is too large'));
    logger.error({ err, req: { id: req.id, method: req.method, url: req.path } }, 'unhandled error');
    sendOAuthError(res, serverError());
  };
