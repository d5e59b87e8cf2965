import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { escapeHtml } from '../http/escape-html.js';
import { consolePage } from './console-layout.js';

/** A refusal or failure the console shows as a page of its own, with its status. */
export class ConsolePageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const sendConsoleError = (res: Response, e: ConsolePageError, signInHref = '/console') =>
  res
    .status(e.status)
    .type('html')
    .send(
      consolePage(
        { tenantId: null, tenantName: 'Credential Service', logoUri: null, session: null, path: '' },
        e.title,
        `<p class="notice error" role="alert">${escapeHtml(e.detail)}</p><p><a href="${escapeHtml(signInHref)}">Go to the console’s start page</a></p>`,
      ),
    );

/**
 * The console's error renderer: its own refusals as pages, anything else as a 500 page that says
 * nothing internal (the log has it). Browsers get HTML, never JSON or a stack trace.
 */
export const consoleErrorRenderer =
  (logger: Logger) => (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof ConsolePageError) return sendConsoleError(res, err);
    const status = (err as { status?: number }).status;
    if (status === 413 || status === 400 || status === 415) {
      return sendConsoleError(
        res,
        new ConsolePageError(status, 'Not accepted', 'The form sent was not accepted.'),
      );
    }
    logger.error({ err, path: req.path }, 'console request failed');
    sendConsoleError(
      res,
      new ConsolePageError(500, 'Something went wrong', 'Nothing was changed. Try again.'),
    );
  };
