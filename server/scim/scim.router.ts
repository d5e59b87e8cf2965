import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../app-context.js';
import { DomainError } from '../domain-errors.js';
import { sendClientError } from '../http/audience.js';
import { jsonBody } from '../http/body-parsers.js';
import { clientErrorOf } from '../http/client-error.js';
import { requireBodyOfType } from '../http/media-type-guard.js';
import { discoveryRouter } from './discovery.routes.js';
import { groupsRouter } from './groups.routes.js';
import { ScimError, sendScimError } from './scim-error.js';
import { scimGuard } from './scim-guard.js';
import { usersRouter } from './users.routes.js';

const SCIM_MEDIA_TYPES = ['application/scim+json', 'application/json'];

/** The SCIM 2.0 endpoint of each tenant, with its own error format. */
export function scimRouter(ctx: Pick<AppContext, 'config' | 'issuance' | 'logger' | 'sql'>): Router {
  const { logger } = ctx;
  const router = Router({ mergeParams: true });
  router.use(jsonBody('1mb', SCIM_MEDIA_TYPES));
  router.use(scimGuard);
  // A write takes a SCIM (or plain JSON) body; any other media type would pass as an empty one.
  for (const method of ['post', 'put', 'patch'] as const)
    router[method]('*', requireBodyOfType([...SCIM_MEDIA_TYPES]));
  router.use('/Users', usersRouter(ctx));
  router.use('/Groups', groupsRouter(ctx));
  router.use(discoveryRouter(ctx));
  router.use((_req, res) => sendScimError(res, new ScimError(404, 'no such SCIM resource')));
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ScimError) return sendScimError(res, err);
    if (err instanceof DomainError) return sendScimError(res, scimErrorOfDomain(err));
    const client = clientErrorOf(err);
    if (client) return sendClientError(req, res, client);
    logger.error({ err }, 'unhandled SCIM error');
    sendScimError(res, new ScimError(500, 'the request could not be completed; it changed nothing'));
  });
  return router;
}

const SCIM_STATUS = { invalid: 400, 'not-found': 404, conflict: 409, unavailable: 503 } as const;

/** A domain error in SCIM's format (RFC 7644 §3.12): a broken rule is an invalidValue. */
const scimErrorOfDomain = (e: DomainError) =>
  new ScimError(SCIM_STATUS[e.kind], e.message, e.kind === 'invalid' ? 'invalidValue' : undefined);
