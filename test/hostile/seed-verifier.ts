import { decodeJwt } from 'jose';
import type { createIntegratorClient } from '../../clients/integrator/src/index.js';

interface RequestObject {
  state: string;
  client_metadata?: { jwks?: { keys: { kid?: string }[] } };
}

/** The request object of a session, fetched as a wallet does (this also makes its certificate). */
async function requestObject(baseUrl: string, sessionId: string): Promise<RequestObject> {
  const res = await fetch(`${baseUrl}/oid4vp/auth-request/${sessionId}`);
  if (res.status !== 200) throw new Error(`request object: ${res.status}`);
  return decodeJwt(await res.text()) as unknown as RequestObject;
}

/**
 * Two presentation sessions of a tenant: one pending (encrypted responses, so an unencrypted or
 * forged answer cannot end it) and one the wallet already declined, whose state hostile responses
 * may reuse without changing anything.
 */
export async function seedVerifier(baseUrl: string, integrator: ReturnType<typeof createIntegratorClient>) {
  const start = async (response_mode: 'direct_post' | 'direct_post.jwt') => {
    const res = await integrator.createAuthorizationRequest({
      body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode },
    });
    if (res.status !== 201) throw new Error(`session: ${res.status}`);
    return res.body.session_id;
  };
  const pendingSessionId = await start('direct_post.jwt');
  const pending = await requestObject(baseUrl, pendingSessionId);
  const finishedSessionId = await start('direct_post');
  const finished = await requestObject(baseUrl, finishedSessionId);
  const declined = await fetch(`${baseUrl}/oid4vp/auth-response`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ state: finished.state, error: 'access_denied' }),
  });
  if (declined.status !== 200) throw new Error(`declined: ${declined.status}`);
  return {
    pendingSessionId,
    finishedSessionId,
    finishedState: finished.state,
    encKid: pending.client_metadata?.jwks?.keys[0]?.kid ?? '',
  };
}
