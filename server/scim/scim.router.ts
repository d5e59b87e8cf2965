import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../app-context.js';
import { discoveryRouter } from './discovery.routes.js';
import { groupsRouter } from './groups.routes.js';
import { ScimError, sendScimError } from './scim-error.js';
import { scimGuard } from './scim-guard.js';
import { usersRouter } from './users.routes.js';

/** The SCIM 2.0 endpoint of each tenant, with its own error format. */
export function scimRouter(ctx: Pick<AppContext, 'config' | 'issuance' | 'logger'>): Router {
  const { logger } = ctx;
  const router = Router({ mergeParams: true });
  router.use(express.json({ type: ['application/scim+json', 'application/json'], limit: '1mb' }));
  router.use(scimGuard);
  router.use('/Users', usersRouter(ctx));
  router.use('/Groups', groupsRouter(ctx));
  router.use(discoveryRouter(ctx));
  router.use((_req, res) => sendScimError(res, new ScimError(404, 'no such SCIM resource')));
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ScimError) return sendScimError(res, err);
    if ((err as { type?: string }).type === 'entity.parse.failed') {
      return sendScimError(res, new ScimError(400, 'the body is not valid JSON', 'invalidSyntax'));
    }
    logger.error({ err }, 'unhandled SCIM error');
    sendScimError(res, new ScimError(500, 'the request could not be completed; it changed nothing'));
  });
  return router;
}
