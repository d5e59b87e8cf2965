import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { Orm } from '../persistence/orm.js';
import type { TokenPrincipal } from '../tenants/token-auth.js';

declare global {
  namespace Express {
    interface Request {
      /** A fresh EntityManager for this request only. */
      em: EntityManager;
      /** Set by the bearer-token guards of the integrator and SCIM APIs. */
      principal?: TokenPrincipal;
      /** Set by the admin guard. */
      actor?: string;
    }
  }
}

export const forkEntityManager = (orm: Orm) => (req: Request, _res: Response, next: NextFunction) => {
  req.em = orm.em.fork();
  next();
};

/** The principal a guard put on the request; a route behind no guard calling this is a wiring bug. */
export function principalOf(req: Request): TokenPrincipal {
  if (!req.principal) throw new Error('route is not behind a token guard');
  return req.principal;
}
