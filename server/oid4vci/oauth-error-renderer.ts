import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { malformedRequest } from './malformed-request.js';
import { OAuthError, sendOAuthError, serverError } from './oauth-error.js';

/** Error middleware for the OAuth-family routes: their errors as `{ error, error_description }`. */
export const oauthErrorRenderer =
  (logger: Logger) => (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof OAuthError) return sendOAuthError(res, err);
    const path = req.originalUrl.split('?')[0] ?? '';
    if ((err as { type?: string }).type === 'entity.parse.failed')
      return sendOAuthError(res, malformedRequest(path, 400, 'the body is not valid JSON'));
    if ((err as { status?: number }).status === 413)
      return sendOAuthError(res, malformedRequest(path, 400, 'the body is too large'));
    logger.error({ err, req: { id: req.id, method: req.method, url: req.path } }, 'unhandled error');
    sendOAuthError(res, serverError());
  };
