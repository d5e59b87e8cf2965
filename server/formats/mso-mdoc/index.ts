/**
 * ISO mdoc (`mso_mdoc`) building blocks: issuance (signIssuerSigned with a document signer key),
 * presentation verification (verifyDeviceResponse under a SessionTranscript of OpenID4VP B.2.6.1,
 * B.2.6.2 or ISO 18013-7 Annex C), Annex C requests and responses, and Token Status Lists in CWT
 * form. Crypto and storage are passed in; nothing here reads a database or the network.
 */

export { annexCRequestForQuery, openAnnexCPresentation } from './annex-c-presentation.js';
export { buildStatusListCwt, type SignedStatusListCwt } from './build-status-list-cwt.js';
export { CborTag, fullDate, tdate } from './cbor-values.js';
export { COSE_ALG, type CoseEcdsaP256 } from './cose-sign1.js';
export {
  ANNEX_C_PROTOCOL,
  type AnnexCElement,
  type AnnexCRequest,
  createAnnexCRequest,
} from './create-annex-c-request.js';
export { type CborLimits, decodeCborSafely, MDOC_CBOR_LIMITS } from './decode-cbor-safely.js';
export { documentSigningKey, type MdocSigningKey } from './document-signing-key.js';
export { ANNEX_C_HPKE, type OpenedAnnexCResponse, openAnnexCResponse } from './open-annex-c-response.js';
export type { RequestedElement } from './read-issuer-signed-items.js';
export {
  readStatusListCwt,
  type StatusListCwtChecks,
  type StatusListCwtKeyResolver,
  type VerifiedStatusListCwt,
} from './read-status-list-cwt.js';
export {
  annexCSessionTranscript,
  jwkThumbprintBytes,
  oid4vpDcApiSessionTranscript,
  oid4vpSessionTranscript,
} from './session-transcript.js';
export { type IssuerSignedInput, type SignedIssuerSigned, signIssuerSigned } from './sign-issuer-signed.js';
export {
  STATUS_LIST_CWT_TYPE,
  type StatusListCwtClaims,
  type StatusListCwtKey,
  signStatusListCwt,
} from './sign-status-list-cwt.js';
export {
  type DeviceResponseChecks,
  type VerifiedMdoc,
  verifyDeviceResponse,
} from './verify-device-response.js';
