import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from '../config.js';
import { sendClientError } from './audience.js';
import { ClientError } from './client-error.js';

/**
 * Public documents and probes: they carry no token, no code and nothing personal, and load balancers
 * and verifiers may fetch them over plain HTTP. Everything else (the admin, integrator and SCIM APIs,
 * the OAuth, OID4VCI and OID4VP endpoints, the login and offer pages) bears a token, a code or a
 * presentation.
 */
const PUBLIC_PATHS = [
  /^\/(healthz|readyz|openapi\.json)$/,
  /^\/(\.well-known|status-lists|credential-types|docs)(\/|$)/,
  /^\/oauth2\/jwks$/,
];

/**
 * Refuses plain HTTP outside local development (`config.insecureHttpAllowed`: PUBLIC_URL on the
 * loopback interface, or ALLOW_INSECURE_HTTP=true). "HTTPS" is the socket's TLS, or a trusted proxy's
 * X-Forwarded-Proto (TRUST_PROXY); with no trusted proxy that header is ignored.
 */
export function requireHttps(config: Pick<Config, 'insecureHttpAllowed'>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (config.insecureHttpAllowed || req.secure || PUBLIC_PATHS.some((p) => p.test(req.path))) return next();
    sendClientError(req, res, new ClientError(403, 'HTTPS is required', 'https-required'));
  };
}

const overHttps = helmet();
// Over plain HTTP (development, a LAN address): no HSTS, which browsers ignore there anyway, and no
// upgrade-insecure-requests, which would rewrite the pages' own scripts and styles to https and leave
// /docs and the login page blank.
const overHttp = helmet({
  hsts: false,
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
});

/** Helmet's headers, with HSTS and upgrade-insecure-requests only when the request came over HTTPS. */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  (req.secure ? overHttps : overHttp)(req, res, next);
}
