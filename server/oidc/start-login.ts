import type { EntityManager } from '@mikro-orm/postgresql';
import { approvalSessionRequest } from '../approvals/approval-session-request.js';
import type { SessionApproval } from '../approvals/session-approval.js';
import { DomainError } from '../domain-errors.js';
import { TtlStoreUnavailable } from '../ephemeral/ttl-store.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { type BrowserPresentation, startBrowserPresentation } from '../verification/browser-presentation.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { AuthorizationError, type ValidAuthorizationRequest } from './authorization-request.js';
import { savePendingSignIn } from './pending-sign-in.js';

export const COMPLETE_PATH = '/oauth2/authorize/complete';

/** The login's presentation (its links, QR code and DC API requests) and what it asks to approve. */
export type StartedLogin = Omit<BrowserPresentation, 'browserBindingHash'> & {
  /** What the sign-in asks the user to approve, for the page to show. */
  approval?: SessionApproval;
};

/**
 * Starts the wallet side of a login: a presentation session of the client's tenant for the client's
 * credential configuration (encrypted responses), and the pending sign-in that remembers what the
 * client asked for. Anyone can start one, so both live in the TTL store (Redis, or memory on the
 * embedded default), expire by themselves, and leave no row or audit event unless the wallet's
 * presentation is verified. Without the store (Redis down) the client is told to try again.
 * The session is also answerable over the W3C Digital Credentials API from the login page itself
 * (HAIP 1.0: dc_api.jwt, a signed request naming the verifier's origin as the one expected origin).
 */
/**
 * A sign-in that asks for an approval (RFC 9396 authorization_details): its transaction goes to the
 * wallet as OpenID4VP transaction data bound to the login's credential query, and the session keeps
 * the power the approval needs, checked when the wallet answers (server/approvals).
 */
async function approvalOf(
  em: EntityManager,
  request: ValidAuthorizationRequest,
  back: { uri: string; state: string | undefined },
) {
  if (!request.approval) return {};
  try {
    return (await approvalSessionRequest(em, request.client.credentialConfigurationId, request.approval))
      .sessionRequest;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    throw new AuthorizationError(
      'invalid_authorization_details',
      `the client’s credential: ${e.message}`,
      back,
    );
  }
}

export async function startLogin(
  em: EntityManager,
  verifier: VerifierServices,
  request: ValidAuthorizationRequest,
): Promise<StartedLogin> {
  const { client } = request;
  const back = { uri: request.redirectUri, state: request.state };
  const tenant = await em.findOne(Tenant, { id: client.tenantId });
  const allowed = tenant?.credentialConfigurations;
  if (allowed && !allowed.includes(client.credentialConfigurationId))
    throw new AuthorizationError(
      'unauthorized_client',
      'the client’s credential configuration is no longer allowed for its tenant',
      back,
    );
  const approval = await approvalOf(em, request, back);
  try {
    const origin = new URL(verifier.config.verifierUrl).origin;
    const started = await startBrowserPresentation(
      em,
      verifier,
      client.tenantId,
      `oidc:${client.id}`,
      { credential_configuration_id: client.credentialConfigurationId, ...approval },
      { origin, completeUrl: `${verifier.config.verifierUrl}${COMPLETE_PATH}` },
    );
    const { browserBindingHash, ...login } = started;
    const signIn = {
      clientId: client.id,
      tenantId: client.tenantId,
      redirectUri: request.redirectUri,
      state: request.state ?? null,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      browserBindingHash,
      createdAt: new Date().toISOString(),
    };
    await savePendingSignIn(verifier.ephemeral.store, login.sessionId, signIn, login.expiresIn);
    return { ...login, ...(request.approval ? { approval: request.approval } : {}) };
  } catch (e) {
    // The tenant's verifier cannot make this request (its HAIP 1.0 profile without trust anchors):
    // the client learns why at its redirect_uri, as for any other tenant setting that stops it.
    if (e instanceof DomainError && e.kind === 'invalid')
      throw new AuthorizationError(
        'unauthorized_client',
        `the tenant’s verifier cannot start this sign-in: ${e.message}`,
        back,
      );
    if (!(e instanceof TtlStoreUnavailable)) throw e;
    throw new AuthorizationError(
      'temporarily_unavailable',
      'signing in is unavailable for a moment; try again shortly',
      back,
    );
  }
}
