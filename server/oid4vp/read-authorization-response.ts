import { createPrivateKey } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { CONTROL_CHARACTERS } from '../http/request-hygiene.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { findSession } from '../verification/ephemeral-sessions.js';
import type { PresentationSession } from '../verification/presentation-session.entity.js';
import type { VerifierServices } from '../verification/verifier-services.js';

export interface AuthorizationResponseForm {
  vp_token?: string | undefined;
  state?: string | undefined;
  response?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

export interface ReadResponse {
  session: PresentationSession;
  /** The session lives in the TTL store (an anonymous sign-in), not in PostgreSQL. */
  ephemeral: boolean;
  vpToken: unknown;
  encrypted: boolean;
  /** An error response of the wallet (OID4VP section 8.5), e.g. access_denied. */
  walletError?: string;
}

const ERROR_CODE = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

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
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(form.response).kid;
    } catch {
      throw invalidRequest('response is not a JWE');
    }
    // A kid with control characters names no session, and must not reach SQL (NUL cannot).
    const usable = kid && !CONTROL_CHARACTERS.test(kid) ? kid : undefined;
    const found = usable ? await findSession(em, s.ephemeral, { encKid: usable }) : undefined;
    const session = found?.session;
    if (!found || !session?.encKeySealed || !session.encKid)
      throw invalidRequest('response is not encrypted to a key of a session');
    const key = createPrivateKey({
      key: s.sealing.open(session.encKeySealed, session.encKid),
      format: 'der',
      type: 'pkcs8',
    });
    let payload: { vp_token?: unknown; state?: unknown; error?: unknown };
    try {
      const { plaintext } = await compactDecrypt(form.response, key, {
        keyManagementAlgorithms: ['ECDH-ES'],
        contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
      });
      payload = JSON.parse(new TextDecoder().decode(plaintext));
    } catch {
      throw invalidRequest('response cannot be decrypted, or is not JSON');
    }
    if (payload.state !== session.state) throw invalidRequest('state does not match the session');
    const { ephemeral } = found;
    if (typeof payload.error === 'string')
      return {
        session,
        ephemeral,
        vpToken: undefined,
        encrypted: true,
        walletError: errorCode(payload.error),
      };
    return { session, ephemeral, vpToken: parseVpToken(payload.vp_token), encrypted: true };
  }
  if (!form.state) throw invalidRequest('state is required');
  if (form.vp_token === undefined && form.error === undefined) throw invalidRequest('vp_token is required');
  const found = await findSession(em, s.ephemeral, { state: form.state });
  if (!found) throw invalidRequest('state does not belong to a session');
  const { session, ephemeral } = found;
  if (form.error !== undefined)
    return { session, ephemeral, vpToken: undefined, encrypted: false, walletError: errorCode(form.error) };
  return { session, ephemeral, vpToken: parseVpToken(form.vp_token), encrypted: false };
}

/** vp_token is a JSON object (OID4VP 1.0 section 8.1), sent as a string in a form. */
function parseVpToken(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidRequest('vp_token is not a JSON object');
  }
}

function errorCode(raw: string): string {
  if (!ERROR_CODE.test(raw)) throw invalidRequest('error is not an OAuth error code');
  return raw;
}
