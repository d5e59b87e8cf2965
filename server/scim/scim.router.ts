import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { ScimError, sendScimError } from './scim-error.js';
import { scimGuard } from './scim-guard.js';
import { serviceProviderConfig } from './service-provider-config.js';

/** The SCIM 2.0 endpoint of each tenant, with its own error format. */
export function scimRouter(logger: Logger): Router {
  const router = Router({ mergeParams: true });
  router.use(express.json({ type: ['application/scim+json', 'application/json'], limit: '1mb' }));
  router.use(scimGuard);
  router.get('/ServiceProviderConfig', serviceProviderConfig);
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
