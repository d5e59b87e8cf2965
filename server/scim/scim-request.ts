import type { Request } from 'express';
import type { AppContext } from '../app-context.js';
import type { ScimCall } from '../directory/scim-call.js';
import { principalOf } from '../http/request-context.js';
import { scimUrlOf } from '../tenants/tenant.view.js';

/** What the SCIM handlers read off a request that passed the SCIM guard. */
export function scimRequest(ctx: Pick<AppContext, 'config' | 'issuance'> & Partial<Pick<AppContext, 'sql'>>) {
  const tenant = (req: Request) => principalOf(req).tenantId;
  return {
    tenant,
    /** The tenant's SCIM base URL, for `location` and `$ref`. */
    base: (req: Request) => scimUrlOf(ctx.config.publicUrl, tenant(req)),
    id: (req: Request) => String(req.params.id),
    call: (req: Request): ScimCall => ({
      em: req.em,
      services: ctx.issuance,
      tenantId: tenant(req),
      actor: req.actor ?? 'scim',
      ...(ctx.sql ? { sql: ctx.sql } : {}),
    }),
  };
}
