import type { EntityManager } from '@mikro-orm/postgresql';
import type { DcApiResponse } from '../../contract/oid4vp/dc-api-response.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { readDcApiResponse } from './read-dc-api-response.js';
import { settlePresentation } from './settle-presentation.js';

/**
 * POST /oid4vp/dc-api-response/{id}: the answer a page got from the Digital Credentials API. Its
 * holder binding names `origin:<origin>`, not the client_id, even for signed requests (OID4VP 1.0
 * Appendix A.4). The answer came back to the very page that asked, so a verified session with a
 * redirect_uri redirects there with a response_code, as the same-device flow does. An ISO 18013-7
 * Annex C answer is verified as the mdoc presentation it opens to, under the Annex C transcript.
 */
export async function completeDcApiPresentation(
  em: EntityManager,
  s: VerifierServices,
  sessionId: string,
  body: DcApiResponse,
) {
  const read = await readDcApiResponse(em, s, sessionId, body);
  return settlePresentation(em, s, read, {
    audience: `origin:${body.origin}`,
    redirects: true,
    transaction: { origin: body.origin, ...(read.annexC ? { annexC: read.annexC } : {}) },
  });
}
