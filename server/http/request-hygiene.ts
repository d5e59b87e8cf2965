import type { NextFunction, Request, Response } from 'express';
import { sendClientError } from './audience.js';
import { ClientError } from './client-error.js';

/** C0 controls and DEL: never part of an identifier, and NUL cannot even be stored by PostgreSQL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const ENCODINGS = new Set(['identity', 'gzip', 'deflate']);
const CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** What is wrong with the request line and the body's declared encoding, or undefined. */
function faultOf(req: Request): ClientError | undefined {
  const [rawPath = '', ...rest] = req.originalUrl.split('?');
  const path = decoded(rawPath);
  if (path === undefined) return new ClientError(400, 'malformed percent-encoding in the path');
  if (CONTROL_CHARACTERS.test(path)) return new ClientError(400, 'control characters in the path');
  const query = decoded(rest.join('?').replaceAll('+', ' '));
  if (query === undefined) return new ClientError(400, 'malformed percent-encoding in the query');
  if (CONTROL_CHARACTERS.test(query)) return new ClientError(400, 'control characters in the query');

  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && !ENCODINGS.has(encoding)) {
    return new ClientError(415, `unsupported Content-Encoding "${encoding}"; send identity, gzip or deflate`);
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !CHARSETS.has(charset.toLowerCase())) {
    return new ClientError(415, `unsupported charset "${charset}"; send UTF-8`);
  }
  return undefined;
}

/**
 * The first check of every request, before routing: a path or query that does not decode, or that
 * carries control characters, and a body in an encoding or charset the parsers cannot read are
 * refused here, in the audience's format, so none of them reaches a handler or SQL.
 */
export function requestHygiene(req: Request, res: Response, next: NextFunction): void {
  const fault = faultOf(req);
  if (fault) sendClientError(req, res, fault);
  else next();
}
