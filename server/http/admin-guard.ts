import type { NextFunction, Request, Response } from 'express';
import { bearerSecretCheck } from '../tenants/token-auth.js';
import { Problem, unauthorized } from './problem.js';
import { sendProblem } from './problem-renderer.js';

/**
 * Guards /admin with ADMIN_TOKEN (compared in constant time, see bearerSecretCheck). Without
 * ADMIN_TOKEN the admin API does not exist.
 */
export function adminGuard(adminToken: string | undefined) {
  const presentsAdminToken = bearerSecretCheck(adminToken);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!presentsAdminToken) {
      return sendProblem(
        res,
        new Problem(404, 'admin-disabled', 'Not found', 'the admin API is disabled (ADMIN_TOKEN is not set)'),
      );
    }
    if (!presentsAdminToken(req.headers.authorization)) return sendProblem(res, unauthorized());
    req.actor = 'admin';
    next();
  };
}

/** Who an admin API change is recorded as: the actor the guard set (always `admin` behind it). */
export const adminActor = (req: Request) => req.actor ?? 'admin';
