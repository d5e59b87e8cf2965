import { openAnnexCPresentation } from '../formats/mso-mdoc/index.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { annexCRecipientKey } from '../verification/annex-c-session-request.js';
import type { FoundSession } from '../verification/ephemeral-sessions.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import type { ReadResponse } from './read-authorization-response.js';
import { PresentationError } from './verification/index.js';

/** An answer over the Digital Credentials API, with what its verification needs beyond the origin. */
export interface DcApiReadResponse extends ReadResponse {
  /** Came by ISO/IEC 18013-7 Annex C: the EncryptionInfo the session sent, for the `dcapi` transcript. */
  annexC?: { encryptionInfo: string };
}

/**
 * An ISO/IEC 18013-7 Annex C answer (`org-iso-mdoc`): `data.response`, the base64url EncryptedResponse,
 * opened with the session's own recipient key for its EncryptionInfo and `origin` (already checked
 * against expected_origins). It is the session's answer only if it decrypts: one made for another
 * origin or session, garbage, or an oversized one is an OAuth invalid_request and leaves the session
 * pending, as an undecryptable dc_api.jwt response does. What it opens to (the DeviceResponse) is
 * verified like any mdoc presentation, by settlePresentation, and fails the session if it does not.
 */
export async function readAnnexCResponse(
  s: VerifierServices,
  { session, ephemeral }: FoundSession,
  origin: string,
  data: { response?: unknown },
): Promise<DcApiReadResponse> {
  const recipientPrivateKey = annexCRecipientKey(s.sealing, session);
  const encryptionInfo = session.annexCEncryptionInfo;
  if (!recipientPrivateKey || !encryptionInfo)
    throw invalidRequest('this session did not offer the org-iso-mdoc protocol');
  if (typeof data.response !== 'string')
    throw invalidRequest('org-iso-mdoc: data.response must be the base64url EncryptedResponse');
  try {
    const vpToken = await openAnnexCPresentation({
      response: data.response,
      encryptionInfo,
      origin,
      recipientPrivateKey,
      dcqlQuery: session.dcqlQuery,
    });
    return { session, ephemeral, encrypted: true, vpToken, annexC: { encryptionInfo } };
  } catch (e) {
    if (e instanceof PresentationError) throw invalidRequest(`org-iso-mdoc: ${e.message}`);
    throw e;
  }
}
