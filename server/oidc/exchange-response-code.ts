import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Signer } from '../keys/signer.js';
import { invalidGrant } from '../oid4vci/oauth-error.js';
import { subjectOf } from './mapped-claims.js';

export const ID_TOKEN_TTL_SECONDS = 300;

interface Redeemed {
  id: string;
  tenant_id: string;
  result: { claims?: Record<string, unknown>; credential_type?: string | null } | null;
}

/**
 * Exchanges a code from the OID4VP redirect for an ID token with the verified claims. The code is
 * cleared by the same statement that reads it, so it works once; it must belong to the client's
 * tenant and be fresh.
 */
export async function exchangeResponseCode(
  em: EntityManager,
  signer: Signer,
  verifierUrl: string,
  clientId: string,
  code: string,
) {
  const hash = createHash('sha256').update(code).digest('hex');
  const [session] = await em.execute<Redeemed[]>(
    `update presentation_session set response_code_hash = null
     where response_code_hash = ? and tenant_id = ? and response_code_expires_at > now() and status = 'verified'
     returning id, tenant_id, result`,
    [hash, clientId],
  );
  if (!session) throw invalidGrant('the code is unknown, used, expired or not for this client');
  const claims = session.result?.claims ?? {};
  const now = Math.floor(Date.now() / 1000);
  const base = {
    iss: verifierUrl,
    aud: clientId,
    sub: subjectOf(clientId, claims),
    iat: now,
    exp: now + ID_TOKEN_TTL_SECONDS,
  };
  const idToken = await signer.signJwt(
    'oidc',
    { typ: 'JWT' },
    {
      ...base,
      sid: session.id,
      credential_type: session.result?.credential_type ?? null,
      credential: claims,
    },
  );
  const accessToken = await signer.signJwt(
    'oidc',
    { typ: 'at+jwt' },
    { ...base, client_id: clientId, scope: 'openid' },
  );
  return {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: ID_TOKEN_TTL_SECONDS,
    id_token: idToken,
  };
}
