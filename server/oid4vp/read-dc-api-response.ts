import type { EntityManager } from '@mikro-orm/postgresql';
import { ANNEX_C_PROTOCOL } from '../../contract/oid4vp/dc-api-request.js';
import type { DcApiResponse } from '../../contract/oid4vp/dc-api-response.js';
import { CONTROL_CHARACTERS } from '../http/request-hygiene.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { findSession } from '../verification/ephemeral-sessions.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { decryptResponse, responseKid } from './decrypt-response.js';
import { type DcApiReadResponse, readAnnexCResponse } from './read-annex-c-response.js';
import { responseParameters } from './response-parameters.js';

/**
 * The session and `vp_token` of an answer a page received from the Digital Credentials API (OID4VP
 * 1.0 Appendix A.4): the session named in the path, the page's origin one of its expected_origins,
 * and the data as the wallet made it: `{ response }` encrypted to the session's own key (dc_api.jwt;
 * no state, A.2 has none), `{ vp_token }` (dc_api), or `{ error }`; or, when the browser answered
 * by ISO/IEC 18013-7 Annex C (`protocol: org-iso-mdoc`), `{ response }` sealed by HPKE to the key of
 * the session's Annex C request (read-annex-c-response.ts).
 */
export async function readDcApiResponse(
  em: EntityManager,
  s: VerifierServices,
  sessionId: string,
  body: DcApiResponse,
): Promise<DcApiReadResponse> {
  const found = CONTROL_CHARACTERS.test(sessionId)
    ? undefined
    : await findSession(em, s.ephemeral, { id: sessionId }, s.sql);
  if (!found) throw invalidRequest('no such session');
  const { session, ephemeral } = found;
  if (!session.expectedOrigins)
    throw invalidRequest('this session is not answered over the Digital Credentials API');
  // Exact string comparison, as wallets compare expected_origins (Appendix A.2).
  if (!session.expectedOrigins.includes(body.origin))
    throw invalidRequest(`origin ${JSON.stringify(body.origin)} is not an expected origin of this session`);
  const { data } = body;
  if (body.protocol === ANNEX_C_PROTOCOL) return readAnnexCResponse(s, found, body.origin, data);
  if (data.response !== undefined) {
    if (responseKid(data.response) !== session.encKid || !session.encKid)
      throw invalidRequest('response is not encrypted to this session’s key');
    const payload = await decryptResponse(s, session, data.response);
    return { session, ephemeral, encrypted: true, ...responseParameters(payload) };
  }
  if (data.vp_token === undefined && data.error === undefined)
    throw invalidRequest('data holds no response, vp_token or error');
  return { session, ephemeral, encrypted: false, ...responseParameters(data) };
}
