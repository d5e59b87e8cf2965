import type { JWK } from 'jose';
import { ANNEX_C_PROTOCOL, type AnnexCDcApiRequest } from '../../contract/oid4vp/dc-api-request.js';
import { annexCRequestForQuery } from '../formats/mso-mdoc/index.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import { HAIP_1_0 } from './haip-session-rules.js';
import type { PresentationSession } from './presentation-session.entity.js';

/** What a session keeps of its Annex C request until the answer comes. */
export type AnnexCKept = Pick<PresentationSession, 'annexCEncryptionInfo' | 'annexCKeySealed'>;

/** The sealing key id of a session's Annex C key: a sealed key opens only for the session it was made for. */
const annexCKeyId = (sessionId: string) => `annex-c:${sessionId}`;

/**
 * The ISO/IEC 18013-7 Annex C request (`org-iso-mdoc`) a dc_api session offers beside its OpenID4VP
 * request, so that a wallet speaking only Annex C (an iPhone's) can answer the same
 * navigator.credentials.get call; and what the session keeps of it: the EncryptionInfo as sent and
 * its private key, sealed. Undefined when Annex C cannot express the query (see
 * annexCRequestForQuery), and under the HAIP 1.0 profile, which names OpenID4VP over the Digital
 * Credentials API with signed requests, whereas this request carries no reader authentication.
 */
export function annexCSessionRequest(
  sealing: KeyEncryption,
  session: Pick<PresentationSession, 'id' | 'dcqlQuery' | 'profile'>,
): { kept: AnnexCKept; request: AnnexCDcApiRequest } | undefined {
  if (session.profile === HAIP_1_0) return undefined;
  const annexC = annexCRequestForQuery(session.dcqlQuery);
  if (!annexC) return undefined;
  const { deviceRequest, encryptionInfo, recipientPrivateKey } = annexC;
  const sealed = sealing.seal(Buffer.from(JSON.stringify(recipientPrivateKey)), annexCKeyId(session.id));
  return {
    kept: { annexCEncryptionInfo: encryptionInfo, annexCKeySealed: sealed },
    request: { protocol: ANNEX_C_PROTOCOL, data: { deviceRequest, encryptionInfo } },
  };
}

/** The private key a session's Annex C answer is encrypted to; undefined when it offered no Annex C. */
export function annexCRecipientKey(
  sealing: KeyEncryption,
  session: Pick<PresentationSession, 'id' | 'annexCKeySealed'>,
): JWK | undefined {
  if (!session.annexCKeySealed) return undefined;
  return JSON.parse(sealing.open(session.annexCKeySealed, annexCKeyId(session.id)).toString()) as JWK;
}
