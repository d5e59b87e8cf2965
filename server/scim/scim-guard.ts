import type { NextFunction, Request, Response } from 'express';
import { authenticateToken, bearerToken, mayUse } from '../tenants/token-auth.js';
import { ScimError, sendScimError } from './scim-error.js';

/**
 * Guards `/tenants/:tenant/scim/v2`: only a SCIM token of that very tenant passes. Another tenant's
 * token gets the same 401 as an unknown one, so the answer says nothing about the tenant in the path.
 */
export async function scimGuard(req: Request, res: Response, next: NextFunction) {
  try {
    const presented = bearerToken(req.headers.authorization);
    const principal = presented ? await authenticateToken(req.unforkedEm, presented, 'scim') : undefined;
    if (!principal || principal.tenantId !== req.params.tenant) {
      return sendScimError(res, new ScimError(401, 'a valid SCIM bearer token of this tenant is required'));
    }
    if (!mayUse(principal, req.method)) {
      return sendScimError(res, new ScimError(403, 'this SCIM token may only read'));
    }
    req.principal = principal;
    req.actor = `scim:${principal.tokenId}`;
    next();
  } catch (e) {
    next(e);
  }
}
