import type { EntityManager } from '@mikro-orm/postgresql';
import type { IssuanceServices } from '../issuance/create-issuance.js';
import type { Sql } from '../persistence/sql.js';

/** Who is changing a tenant's directory, and with what: every SCIM write takes one of these. */
export interface ScimCall {
  em: EntityManager;
  services: IssuanceServices;
  tenantId: string;
  /** `scim:<token id>`: the SCIM token that made the change, for the audit log. */
  actor: string;
  /** The pool's one-statement client: a new user is written by one statement (provision-new-user.ts). */
  sql?: Sql;
}
