import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { validationError } from '../domain-errors.js';
import { integratorActor } from '../http/integrator-guard.js';
import { principalOf } from '../http/request-context.js';
import { tokenView } from './tenant.view.js';
import { issueToken, listTokens, revokeToken } from './tenant-service.js';

const s = initServer();
const r = integratorContract;
const MAX_LIFETIME_MS = 366 * 86_400_000;

/** When a token the tenant makes for itself ends: in the future and within the year (see the contract). */
function tenantTokenExpiry(value: string, now = Date.now()): Date {
  const at = new Date(value);
  if (at.getTime() <= now) throw validationError([{ field: 'expires_at', message: 'must be in the future' }]);
  if (at.getTime() > now + MAX_LIFETIME_MS)
    throw validationError([{ field: 'expires_at', message: 'must be within 366 days' }]);
  return at;
}

/** The tenant's own tokens through its integrator token; each change audited under that token. */
export function tenantTokenRoutes() {
  return {
    listTenantTokens: s.route(r.listTenantTokens, async ({ req }) => ({
      status: 200,
      body: { items: (await listTokens(req.em, principalOf(req).tenantId)).map(tokenView) },
    })),
    createTenantToken: s.route(r.createTenantToken, async ({ body, req }) => {
      const expiresAt = tenantTokenExpiry(body.expires_at);
      const tenantId = principalOf(req).tenantId;
      const created = await issueToken(
        req.em,
        tenantId,
        body.kind,
        expiresAt,
        integratorActor(req),
        body.scope,
      );
      return { status: 201, body: { ...tokenView(created), token: created.token } };
    }),
    revokeTenantToken: s.route(r.revokeTenantToken, async ({ params, req }) => ({
      status: 200,
      body: tokenView(
        await revokeToken(req.em, principalOf(req).tenantId, params.tokenId, integratorActor(req)),
      ),
    })),
  };
}
