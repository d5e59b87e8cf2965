import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidToken } from '../oid4vci/oauth-error.js';
import { bearerToken } from '../tenants/token-auth.js';
import { hashSecret } from '../tenants/token-secret.js';
import { PresentationSession } from '../verification/presentation-session.entity.js';
import { mappableClaims, resultOf } from '../verification/session-result.js';
import { mappedClaims, subjectOf } from './mapped-claims.js';
import { OidcClient } from './oidc-client.entity.js';

/**
 * OIDC Core 5.3: the claims of the login an access token was issued for, as its client's mapping
 * reads them from the verified credential: the same `sub` and claims as the ID token.
 */
export async function readUserinfo(em: EntityManager, authorization: string | undefined) {
  const token = bearerToken(authorization);
  if (!token) throw invalidToken('a Bearer access token is required');
  const [row] = await em.execute<{ session_id: string; client_id: string }[]>(
    `select session_id, client_id from oidc_authorization
     where access_token_hash = ? and access_token_expires_at > now()`,
    [hashSecret(token)],
  );
  if (!row) throw invalidToken('the access token is unknown, expired or revoked');
  const client = await em.findOne(OidcClient, { id: row.client_id });
  const session = await em.findOne(PresentationSession, { id: row.session_id });
  if (!client || !session) throw invalidToken('the access token is unknown, expired or revoked');
  const claims = (session.result?.claims ?? {}) as Record<string, unknown>;
  const mappable = mappableClaims(resultOf(session));
  return { ...mappedClaims(mappable, client.claimsMapping), sub: subjectOf(session.tenantId, claims) };
}
