import type { EntityManager } from '@mikro-orm/postgresql';
import type { Signer } from '../keys/signer.js';
import { invalidGrant, invalidRequest } from '../oid4vci/oauth-error.js';
import { hashSecret } from '../tenants/token-secret.js';
import type { SessionResult } from '../verification/session-result.js';
import { subjectOf } from './mapped-claims.js';

export const ID_TOKEN_TTL_SECONDS = 300;

interface Redeemed {
  id: string;
  tenant_id: string;
  result: SessionResult | null;
  profile: string | null;
}

/**
 * Exchanges a response_code from the OID4VP same-device redirect for an ID token with the verified
 * claims. It must belong to the client's tenant, be fresh, and come with the session_binding the
 * integrator got when it created the session: the proof that the redirect arrived in the browser
 * session that started the request (HAIP 1.0), so a code carried to another browser is useless.
 * The code is cleared only when all of that holds, so it works once; a wrong binding changes nothing.
 */
export async function exchangeResponseCode(
  em: EntityManager,
  signer: Signer,
  verifierUrl: string,
  clientId: string,
  code: string,
  binding: unknown,
) {
  if (typeof binding !== 'string' || !binding)
    throw invalidRequest('session_binding is required: the secret returned when the session was created');
  // One conditional UPDATE: the code is found by its hash and cleared only together with a matching
  // binding hash (hashes of secrets, compared by the index, as tokens are), so it works once and a
  // wrong binding changes nothing.
  const [session] = await em.execute<Redeemed[]>(
    `update presentation_session set response_code_hash = null
     where response_code_hash = ? and tenant_id = ? and response_code_expires_at > now() and status = 'verified'
       and session_binding_hash = ?
     returning id, tenant_id, result, profile`,
    [hashSecret(code), clientId, hashSecret(binding)],
  );
  if (!session)
    throw invalidGrant(
      'the code is unknown, used, expired, not for this client, or not issued to this session (session_binding)',
    );
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
      // The session result's `profile` and `credentials` (trust path of each); `profile` itself is a
      // standard OIDC claim (a profile page URL), hence the longer name.
      ...(session.profile ? { presentation_profile: session.profile } : {}),
      ...(session.result?.credentials ? { credentials: session.result.credentials } : {}),
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
