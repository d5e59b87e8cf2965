import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidGrant, invalidRequest } from '../oid4vci/oauth-error.js';
import { hashSecret } from '../tenants/token-secret.js';
import { announceRelease, releaseAwaitedResult } from '../verification/release-awaited-result.js';
import { resultOf } from '../verification/session-result.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { subjectOf } from './mapped-claims.js';

export const ID_TOKEN_TTL_SECONDS = 300;

/**
 * Exchanges a response_code from the OID4VP same-device redirect for an ID token with the verified
 * claims. It must belong to the caller's tenant, be fresh, and come with the session_binding the
 * integrator got when it created the session: the proof that the redirect arrived in the browser
 * session that started the request (HAIP 1.0), so a code carried to another browser is useless.
 * Only then is the result released: the session turns from awaiting_redirect to verified, for
 * polling and SSE too, and the code is spent; a wrong or missing binding changes nothing.
 */
export async function exchangeResponseCode(
  em: EntityManager,
  verifier: Pick<VerifierServices, 'signer' | 'events'>,
  verifierUrl: string,
  caller: { tenantId: string; tokenId: string },
  code: string,
  binding: unknown,
) {
  if (typeof binding !== 'string' || !binding)
    throw invalidRequest('session_binding is required: the secret returned when the session was created');
  // The code and the binding are compared as hashes of secrets, by the index, as tokens are.
  const proof = { tenantId: caller.tenantId, bindingHash: hashSecret(binding) };
  const session = await em.transactional((tx) =>
    releaseAwaitedResult(tx, hashSecret(code), proof, `integrator:${caller.tokenId}`),
  );
  if (!session)
    throw invalidGrant(
      'the code is unknown, used, expired, not for this client, or not issued to this session (session_binding)',
    );
  await announceRelease(verifier.events, session);
  const result = resultOf(session);
  const clientId = caller.tenantId;
  const claims = result?.claims ?? {};
  const now = Math.floor(Date.now() / 1000);
  const base = {
    iss: verifierUrl,
    aud: clientId,
    sub: subjectOf(clientId, claims),
    iat: now,
    exp: now + ID_TOKEN_TTL_SECONDS,
  };
  const idToken = await verifier.signer.signJwt(
    'oidc',
    { typ: 'JWT' },
    {
      ...base,
      sid: session.id,
      credential_type: result?.credential_type ?? null,
      credential: claims,
      // The session result's `profile` and `credentials` (trust path of each); `profile` itself is a
      // standard OIDC claim (a profile page URL), hence the longer name.
      ...(session.profile ? { presentation_profile: session.profile } : {}),
      ...(result?.credentials ? { credentials: result.credentials } : {}),
    },
  );
  const accessToken = await verifier.signer.signJwt(
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
