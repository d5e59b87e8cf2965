import type { EntityManager } from '@mikro-orm/postgresql';
import { createIntegratorClient, type IntegratorClient } from '../../clients/integrator/src/index.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import { issueToken, revokeToken } from '../tenants/tenant-service.js';
import type { ConsoleRole, ConsoleSession, SessionTokens } from './console-session.js';

const kid = (tenantId: string) => `console-session:${tenantId}`;

/**
 * The tenant API tokens a console session acts with: an integrator and a SCIM token of the role's
 * scope (an auditor's read only), expiring when the session must end at the latest, revoked at
 * sign-out. So the console can do nothing the public API would not let these tokens do.
 */
export async function mintSessionTokens(
  em: EntityManager,
  sealing: KeyEncryption,
  tenantId: string,
  role: ConsoleRole,
  expiresAt: Date,
): Promise<SessionTokens> {
  const scope = role === 'auditor' ? 'read' : 'full';
  const integrator = await issueToken(em, tenantId, 'integrator', expiresAt, 'console', scope);
  const scim = await issueToken(em, tenantId, 'scim', expiresAt, 'console', scope);
  const seal = (token: string) => sealing.seal(Buffer.from(token, 'utf8'), kid(tenantId));
  return {
    integratorId: integrator.id,
    integrator: seal(integrator.token),
    scimId: scim.id,
    scim: seal(scim.token),
  };
}

/** Revokes every token the session holds (sign-out, expiry seen); a token already gone is fine. */
export async function revokeSessionTokens(em: EntityManager, session: ConsoleSession): Promise<void> {
  for (const [tenantId, t] of Object.entries(session.tokens)) {
    for (const id of [t.integratorId, t.scimId]) {
      await revokeToken(em, tenantId, id, 'console').catch(() => undefined);
    }
  }
}

export interface TenantApi {
  api: IntegratorClient;
  scimToken: string;
  integratorTokenId: string;
}

/** The typed client of the public integrator API with the session's token, and its SCIM token. */
export function tenantApiOf(
  sealing: KeyEncryption,
  publicUrl: string,
  tenantId: string,
  tokens: SessionTokens,
): TenantApi {
  const open = (sealed: string) => sealing.open(sealed, kid(tenantId)).toString('utf8');
  return {
    api: createIntegratorClient({ baseUrl: publicUrl, token: open(tokens.integrator) }),
    scimToken: open(tokens.scim),
    integratorTokenId: tokens.integratorId,
  };
}
