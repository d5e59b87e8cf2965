import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

declare global {
  namespace Express {
    interface Request {
      /** X-Request-ID when the client sent one, else a fresh UUID: ties error lines to the request's. */
      id: string;
    }
  }
}

/** Probes and scrapes: polled all day long, never worth a line. */
const UNLOGGED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One line per request once it is over, as pino-http wrote it (`request completed`, `request
 * errored` at 5xx, `request aborted`), with the request as method and path only: no query string,
 * header or cookie, so no token or code reaches the log. Written here instead of by pino-http, which
 * made a child logger per request, serialising and redacting the whole request up front even when
 * the level let nothing through (a sixteenth of an authenticated GET's CPU).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    req.id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    if (!UNLOGGED.has(req.url)) {
      const started = Date.now();
      // 'close' comes after 'finish', and also when the client went away before the answer was sent.
      res.once('close', () => {
        if (logger.isLevelEnabled('info')) logger.info(...lineOf(req, res, started));
      });
    }
    next();
  };
}

function lineOf(req: Request, res: Response, started: number): [Record<string, unknown>, string] {
  const fields = {
    req: { id: req.id, method: req.method, url: req.originalUrl.split('?')[0] },
    res: { statusCode: res.headersSent ? res.statusCode : null },
  };
  const responseTime = Date.now() - started;
  if (res.statusCode >= 500) {
    const err = new Error(`failed with status code ${res.statusCode}`);
    return [{ ...fields, err, responseTime }, 'request errored'];
  }
  const completed = !req.readableAborted && res.writableEnded;
  return [{ ...fields, responseTime }, completed ? 'request completed' : 'request aborted'];
}
