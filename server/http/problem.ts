import type { ProblemDetails } from '../../contract/problem-details.js';
import type { DomainError } from '../domain-errors.js';
import type { ClientError } from './client-error.js';

/**
 * An error of the integrator and admin APIs, rendered as RFC 9457 problem details. Each kind has a
 * stable `type` URN named after its code, so clients can branch on it without parsing prose.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: { field: string; message: string }[],
  ) {
    super(detail ?? title);
  }

  get type(): string {
    return `urn:credservice:problem:${this.code}`;
  }

  toJSON(): ProblemDetails {
    return {
      type: this.type,
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export const validationError = (errors: { field: string; message: string }[], detail?: string) =>
  new Problem(400, 'validation-error', 'The request is not valid', detail ?? describe(errors), errors);

export const unauthorized = (detail = 'A valid bearer token is required') =>
  new Problem(401, 'unauthorized', 'Unauthorized', detail);

export const notFound = (what: string) =>
  new Problem(404, 'not-found', 'Not found', `${what} does not exist`);

export const conflict = (detail: string) => new Problem(409, 'conflict', 'Conflict', detail);

export const internalError = () =>
  new Problem(
    500,
    'internal-error',
    'Internal error',
    'The request could not be completed; it changed nothing',
  );

const CLIENT_ERROR_TITLES: Record<ClientError['status'], string> = {
  400: 'The request is not valid',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Payload too large',
  415: 'Unsupported media type',
};

/** A fault of the request found at the edge (body, encoding, path, transport), as a problem. */
export const problemOf = (e: ClientError) =>
  e.status === 400
    ? validationError([{ field: '(request)', message: e.detail }], e.detail)
    : new Problem(e.status, e.code, CLIENT_ERROR_TITLES[e.status], e.detail);

function describe(errors: { field: string; message: string }[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}

const DOMAIN_STATUS = { invalid: 400, 'not-found': 404, conflict: 409, unavailable: 503 } as const;
const DOMAIN_TITLE = {
  invalid: 'The request is not valid',
  'not-found': 'Not found',
  conflict: 'Conflict',
  unavailable: 'Temporarily unavailable',
} as const;

/** A domain error as the integrator and admin APIs show it. */
export const problemOfDomain = (e: DomainError) =>
  new Problem(DOMAIN_STATUS[e.kind], e.code, DOMAIN_TITLE[e.kind], e.message, e.errors);
