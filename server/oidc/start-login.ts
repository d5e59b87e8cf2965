import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Tenant } from '../tenants/tenant.entity.js';
import { hashSecret } from '../tenants/token-secret.js';
import { createPresentationSession } from '../verification/create-presentation-session.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { AuthorizationError, type ValidAuthorizationRequest } from './authorization-request.js';
import { OidcAuthorization } from './oidc-authorization.entity.js';

export interface StartedLogin {
  sessionId: string;
  expiresIn: number;
  qrCode: string;
  authorizationRequestUri: string;
  /** Goes into a cookie of the browser that started the login; only its hash is stored. */
  browserSecret: string;
}

/**
 * Starts the wallet side of a login: a presentation session of the client's tenant for the client's
 * credential configuration (encrypted responses), and the pending authorization that remembers what
 * the client asked for. Both are written in one transaction.
 */
export async function startLogin(
  em: EntityManager,
  verifier: VerifierServices,
  request: ValidAuthorizationRequest,
): Promise<StartedLogin> {
  const { client } = request;
  const tenant = await em.findOne(Tenant, { id: client.tenantId });
  const allowed = tenant?.credentialConfigurations;
  if (allowed && !allowed.includes(client.credentialConfigurationId))
    throw new AuthorizationError(
      'unauthorized_client',
      'the client’s credential configuration is no longer allowed for its tenant',
      { uri: request.redirectUri, state: request.state },
    );
  const browserSecret = randomBytes(32).toString('base64url');
  const created = await em.transactional(async (tx) => {
    const session = await createPresentationSession(tx, verifier, client.tenantId, `oidc:${client.id}`, {
      credential_configuration_id: client.credentialConfigurationId,
      response_mode: 'direct_post.jwt',
    });
    tx.create(OidcAuthorization, {
      sessionId: session.session.id,
      clientId: client.id,
      redirectUri: request.redirectUri,
      state: request.state ?? null,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      browserBindingHash: hashSecret(browserSecret),
      createdAt: new Date(),
      completedAt: null,
      authTime: null,
      codeHash: null,
      codeExpiresAt: null,
      codeRedeemedAt: null,
      accessTokenHash: null,
      accessTokenExpiresAt: null,
    });
    await tx.flush();
    return session;
  });
  return {
    sessionId: created.session.id,
    expiresIn: created.expiresIn,
    qrCode: created.qrCode,
    authorizationRequestUri: created.authorizationRequestUri,
    browserSecret,
  };
}
