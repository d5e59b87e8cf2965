import type { EntityManager } from '@mikro-orm/postgresql';
import { responseUri as responseUriOf } from '../verification/request-object.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { type AuthorizationResponseForm, readAuthorizationResponse } from './read-authorization-response.js';
import { settlePresentation } from './settle-presentation.js';

/**
 * The response endpoint's work (direct_post, direct_post.jwt): the holder binding names the
 * verifier's client_id. A verified session with a redirect_uri answered through the same-device
 * link gets a response_code in the redirect (OID4VP 1.0 section 8.2, HAIP 1.0 redirects); an answer
 * from another device (the QR code) is never redirected, since the browser that started the
 * request is not there.
 */
export async function completePresentation(
  em: EntityManager,
  s: VerifierServices,
  form: AuthorizationResponseForm,
  sameDevice = false,
) {
  const read = await readAuthorizationResponse(em, s, form);
  const { clientId } = await s.identity(read.session.clientIdPrefix);
  // The response_uri the request object named (request-object.ts): the same-device one when the
  // session redirects and the wallet came through the same-device link.
  const responseUri = responseUriOf(s.config.verifierUrl, sameDevice && Boolean(read.session.redirectUri));
  return settlePresentation(em, s, read, {
    audience: clientId,
    redirects: sameDevice,
    transaction: { responseUri },
  });
}
