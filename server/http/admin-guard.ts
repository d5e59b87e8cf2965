import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { bearerToken } from '../tenants/token-auth.js';
import { Problem, unauthorized } from './problem.js';
import { sendProblem } from './problem-renderer.js';

/**
 * Guards /admin with ADMIN_TOKEN. Both sides are hashed before the constant-time comparison so the
 * comparison takes the same time whatever the presented length. Without ADMIN_TOKEN the admin API
 * does not exist.
 */
export function adminGuard(adminToken: string | undefined) {
  const expected = adminToken ? createHash('sha256').update(adminToken).digest() : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (!expected) {
      return sendProblem(
        res,
        new Problem(404, 'admin-disabled', 'Not found', 'the admin API is disabled (ADMIN_TOKEN is not set)'),
      );
    }
    const presented = bearerToken(req.headers.authorization);
    const digest = createHash('sha256')
      .update(presented ?? '')
      .digest();
    if (!presented || !timingSafeEqual(digest, expected)) return sendProblem(res, unauthorized());
    req.actor = 'admin';
    next();
  };
}
