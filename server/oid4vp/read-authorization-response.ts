import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { findSession } from '../verification/ephemeral-sessions.js';
import type { PresentationSession } from '../verification/presentation-session.entity.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { decryptResponse, responseKid } from './decrypt-response.js';
import { type ResponseParameters, responseParameters } from './response-parameters.js';

export interface AuthorizationResponseForm {
  vp_token?: string | undefined;
  state?: string | undefined;
  response?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

export interface ReadResponse extends ResponseParameters {
  session: PresentationSession;
  /** The session lives in the TTL store (an anonymous sign-in), not in PostgreSQL. */
  ephemeral: boolean;
  encrypted: boolean;
}

/**
 * The session and `vp_token` of a wallet's response: plain (direct_post: form fields) or encrypted
 * (direct_post.jwt: a JWE to the session's key, found by its `kid`, holding `{ vp_token, state }`).
 */
export async function readAuthorizationResponse(
  em: EntityManager,
  s: VerifierServices,
  form: AuthorizationResponseForm,
): Promise<ReadResponse> {
  if (form.response) {
    const kid = responseKid(form.response);
    const found = kid ? await findSession(em, s.ephemeral, { encKid: kid }, s.sql) : undefined;
    if (!found) throw invalidRequest('response is not encrypted to a key of a session');
    const { session, ephemeral } = found;
    const payload = await decryptResponse(s, session, form.response);
    if (payload.state !== session.state) throw invalidRequest('state does not match the session');
    return { session, ephemeral, encrypted: true, ...responseParameters(payload) };
  }
  if (!form.state) throw invalidRequest('state is required');
  if (form.vp_token === undefined && form.error === undefined) throw invalidRequest('vp_token is required');
  const found = await findSession(em, s.ephemeral, { state: form.state }, s.sql);
  if (!found) throw invalidRequest('state does not belong to a session');
  const { session, ephemeral } = found;
  return { session, ephemeral, encrypted: false, ...responseParameters(form) };
}
