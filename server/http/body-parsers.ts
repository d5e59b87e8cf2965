import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { sendClientError } from './audience.js';
import { ClientError } from './client-error.js';

/** Deeper than any request this service understands; bounded so that no walker or jsonb overflows. */
const MAX_DEPTH = 64;
/** C0 controls except tab, line feed and carriage return, and DEL: not text a person or system meant. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What in a parsed body PostgreSQL cannot store or no client means to send: NUL and other control
 * characters, unpaired UTF-16 surrogates (jsonb refuses both), and nesting beyond MAX_DEPTH. Walks
 * with its own stack, so a hostile depth cannot overflow the call stack.
 */
export function unstorableTextIn(body: unknown): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  const badText = (s: string) => CONTROL_IN_TEXT.test(s) || LONE_SURROGATE.test(s);
  while (stack.length) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value === 'string') {
      if (badText(value)) return 'control characters or unpaired surrogates in the body';
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_DEPTH) return `the body is nested deeper than ${MAX_DEPTH} levels`;
      for (const [key, inner] of Object.entries(value)) {
        if (badText(key)) return 'control characters or unpaired surrogates in the body';
        stack.push({ value: inner, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

function refuseUnstorableText(req: Request, res: Response, next: NextFunction): void {
  const fault = unstorableTextIn(req.body);
  if (fault) sendClientError(req, res, new ClientError(400, fault));
  else next();
}

/** JSON bodies of the given media types, then the text check. One parser for every JSON audience. */
export const jsonBody = (limit: string, type: string[] = ['application/json']): RequestHandler[] => [
  express.json({ limit, type, strict: true }),
  refuseUnstorableText,
];

/** application/x-www-form-urlencoded bodies (OAuth token and response endpoints), then the text check. */
export const formBody = (limit: string): RequestHandler[] => [
  express.urlencoded({ extended: false, limit, parameterLimit: 100 }),
  refuseUnstorableText,
];
