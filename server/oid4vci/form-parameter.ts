import { invalidRequest } from './oauth-error.js';

/**
 * A parameter of a form-encoded OAuth request (PAR, token): a non-empty string given once (RFC 6749
 * section 3.1: "request and response parameters MUST NOT be included more than once"; the form
 * parser makes a repeated one an array). Absent is undefined, or `invalid_request` when required.
 */
export function formParameter(body: Record<string, unknown>, name: string, required: true): string;
export function formParameter(
  body: Record<string, unknown>,
  name: string,
  required?: boolean,
): string | undefined;
export function formParameter(body: Record<string, unknown>, name: string, required = false) {
  const v = body[name];
  if (v === undefined) {
    if (required) throw invalidRequest(`${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || !v) throw invalidRequest(`${name} must be given once, not empty`);
  return v;
}
