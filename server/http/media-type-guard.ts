import { type AppRoute, type AppRouter, isAppRoute, isAppRouteNoBody } from '@ts-rest/core';
import type { Express, NextFunction, Request, Response } from 'express';
import { sendClientError } from './audience.js';
import { ClientError } from './client-error.js';

/** Whether the request carries a body at all (a Content-Length of 0 is none). */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * The common case without parsing: the Content-Type is one of the types as written, alone or with
 * parameters (`application/json; charset=utf-8`). Anything else goes to type-is, which costs a
 * media type parse per request.
 */
function exactly(contentType: string | undefined, types: string[]): boolean {
  if (!contentType) return false;
  const semicolon = contentType.indexOf(';');
  const bare = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return types.includes(bare);
}

/**
 * A route that takes a body takes it only in its declared media type: a missing body is a 400 and
 * any other type a 415, so a text, XML or form body can never pass as an empty JSON object and
 * change something.
 */
export const requireBodyOfType =
  (types: string[], optional = false) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const wanted = types.join(' or ');
    if (!hasBody(req)) {
      if (optional) next();
      else sendClientError(req, res, new ClientError(400, `a body is required (${wanted})`));
    } else if (exactly(req.headers['content-type'], types)) next();
    else if (!req.is(types)) {
      const sent = req.headers['content-type'] ?? 'none';
      sendClientError(req, res, new ClientError(415, `send ${wanted}, not ${sent}`));
    } else next();
  };

function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((r) => (isAppRoute(r) ? [r] : routesOf(r as AppRouter)));
}

/** Media types a route takes besides its content type (`metadata.otherBodies`, e.g. application/jwt). */
const otherBodyTypes = (route: AppRoute) =>
  Object.keys((route.metadata as { otherBodies?: Record<string, unknown> } | undefined)?.otherBodies ?? {});

/** A route whose body may be left out (`metadata.bodyOptional`): an absent body is then `{}`. */
const bodyOptional = (route: AppRoute) =>
  (route.metadata as { bodyOptional?: boolean } | undefined)?.bodyOptional === true;

/**
 * Puts requireBodyOfType in front of every route of the contract that declares a body, with the
 * contract's content type (JSON unless it says otherwise) and the other media types it declares,
 * which the route parses itself. Mount before the contract's endpoints.
 */
export function guardContractBodies(app: Express, contract: AppRouter): void {
  for (const route of routesOf(contract)) {
    if (route.method === 'GET' || !('body' in route) || isAppRouteNoBody(route.body)) continue;
    const method = route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
    app[method](
      route.path,
      requireBodyOfType(
        [route.contentType ?? 'application/json', ...otherBodyTypes(route)],
        bodyOptional(route),
      ),
    );
  }
}
