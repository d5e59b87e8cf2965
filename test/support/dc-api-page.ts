import type { createIntegratorClient } from '../../clients/integrator/src/index.js';

/**
 * The integrator's page of a dc_api session, as tests play it: the session with its requests for
 * navigator.credentials.get, and the answer posted back as the page posts it.
 */

export type DigitalCredentialRequest = { protocol: string; data: Record<string, unknown> };

/** A dc_api session (dc_api.jwt unless `body` says otherwise) with its DC API requests. */
export async function createDcApiSession(
  integrator: ReturnType<typeof createIntegratorClient>,
  body: Record<string, unknown>,
) {
  const res = await integrator.createAuthorizationRequest({
    body: { response_mode: 'dc_api.jwt', ...body } as never,
  });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  const { dc_api_request, dc_api_requests, dc_api_response_uri } = res.body;
  if (!dc_api_request || !dc_api_requests || !dc_api_response_uri) throw new Error('no DC API requests');
  const requests = dc_api_requests as DigitalCredentialRequest[];
  return { ...res.body, dc_api_request, dc_api_requests: requests, dc_api_response_uri };
}

/** The session's ISO 18013-7 Annex C request's data. */
export function annexCRequestOf(s: { dc_api_requests: DigitalCredentialRequest[] }) {
  const request = s.dc_api_requests.find((r) => r.protocol === 'org-iso-mdoc');
  if (!request) throw new Error('no org-iso-mdoc request');
  return request.data as { deviceRequest: string; encryptionInfo: string };
}

/** What the page posts: the DigitalCredential's protocol and data, and its own origin. */
export const postDcApiAnswer = (
  s: { dc_api_response_uri: string },
  origin: string,
  data: unknown,
  protocol: string,
) =>
  fetch(s.dc_api_response_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ origin, protocol, data }),
  });
