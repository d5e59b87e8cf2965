/**
 * What domain code throws when a request cannot be done. It names the failure (a stable `code`, a
 * kind that says what went wrong) and knows nothing of HTTP: each audience's renderer maps it to its
 * own format (problem+json for the integrator and admin APIs, OAuth errors, SCIM errors).
 */
export type DomainErrorKind = 'invalid' | 'not-found' | 'conflict' | 'unavailable';

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

const describe = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.message}`).join('; ');

/** The input breaks a rule; `errors` names each field and what is wrong with it. */
export const validationError = (errors: FieldError[], detail?: string) =>
  new DomainError('invalid', 'validation-error', detail ?? describe(errors), errors);

export const notFound = (what: string) => new DomainError('not-found', 'not-found', `${what} does not exist`);

/** The request contradicts the current state (a duplicate, a transition that is not allowed). */
export const conflict = (detail: string, code = 'conflict') => new DomainError('conflict', code, detail);

/**
 * A dependency the request needs is gone for now (the key store's token or its daemon): a 503 in
 * every audience's format (`temporarily_unavailable` for OAuth), to be tried again later.
 */
export const unavailable = (detail: string, code = 'unavailable') =>
  new DomainError('unavailable', code, detail);
