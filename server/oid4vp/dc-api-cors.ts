import type { NextFunction, Request, Response } from 'express';

/**
 * CORS for the DC API response route: the page that calls the Digital Credentials API is the
 * integrator's, on its own origin, and posts JSON here (a preflighted request). Any origin may ask:
 * the route takes no cookie or token (`credentials` stay off), only the session's unguessable id,
 * and it accepts an answer only for one of the session's expected_origins, bound by the wallet to
 * that origin. Errors carry the headers too, so the page can read why it was refused.
 */
export function dcApiResponseCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') {
    next();
    return;
  }
  res.setHeader('Access-Control-Allow-Methods', 'POST');
  res.setHeader('Access-Control-Allow-Headers', 'content-type');
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
}
