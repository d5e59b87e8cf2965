import type { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../domain-errors.js';
import { clientErrorOf } from './client-error.js';
import {
  internalError,
  Problem,
  problemOf,
  problemOfDomain,
  unauthorized,
  validationError,
} from './problem.js';
import { fieldErrors } from './zod-errors.js';

export const RETRY_AFTER_SECONDS = '5';

export function sendProblem(res: Response, problem: Problem): void {
  if (problem.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  // A dependency is gone for now (RFC 9110 section 10.2.3): a client may come back shortly.
  if (problem.status === 503) res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.toJSON()));
}

/** ts-rest's request validation, rendered as one problem naming every bad field. */
export function requestValidationProblem(err: RequestValidationError, _req: Request, res: Response): void {
  const errors = [
    ...(err.pathParams ? fieldErrors(err.pathParams, 'path') : []),
    ...(err.headers ? fieldErrors(err.headers, 'header') : []),
    ...(err.query ? fieldErrors(err.query, 'query') : []),
    ...(err.body ? fieldErrors(err.body) : []),
  ];
  sendProblem(res, validationError(errors));
}

/**
 * The one renderer of errors for the integrator and admin APIs: known problems as they are, faults of
 * the request (a body that does not parse, is too large or in an unknown encoding) as 4xx, anything
 * else as a 500 that says nothing internal (the log has it).
 */
export const problemRenderer =
  (logger: Logger) => (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof Problem) return sendProblem(res, err);
    if (err instanceof DomainError) return sendProblem(res, problemOfDomain(err));
    const client = clientErrorOf(err);
    if (client) return sendProblem(res, problemOf(client));
    if ((err as { status?: number }).status === 401) return sendProblem(res, unauthorized());
    logger.error({ err, req: { id: req.id, method: req.method, url: req.path } }, 'unhandled error');
    sendProblem(res, internalError());
  };
