import type { NextFunction, Request, Response } from 'express';
import { authenticateToken, bearerToken, mayUse } from '../tenants/token-auth.js';
import { Problem, unauthorized } from './problem.js';
import { sendProblem } from './problem-renderer.js';

/** Guards the integrator API: a valid integrator token puts its tenant on the request. */
export async function integratorGuard(req: Request, res: Response, next: NextFunction) {
  try {
    const presented = bearerToken(req.headers.authorization);
    const principal = presented
      ? await authenticateToken(req.unforkedEm, presented, 'integrator')
      : undefined;
    if (!principal) return sendProblem(res, unauthorized());
    if (!mayUse(principal, req.method))
      return sendProblem(res, new Problem(403, 'read-only-token', 'Forbidden', 'this token may only read'));
    req.principal = principal;
    req.actor = `integrator:${principal.tokenId}`;
    next();
  } catch (e) {
    next(e);
  }
}

/** Who a tenant-scoped API change is recorded as: the integrator token the guard found. */
export const integratorActor = (req: { actor?: string }) => req.actor ?? 'integrator';
