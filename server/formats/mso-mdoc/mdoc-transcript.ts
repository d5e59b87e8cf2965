import { reject } from '../../oid4vp/verification/presentation-error.js';
import type { Checks } from '../../oid4vp/verification/types.js';
import {
  annexCSessionTranscript,
  oid4vpDcApiSessionTranscript,
  oid4vpSessionTranscript,
} from './session-transcript.js';

/**
 * The SessionTranscript the holder's device signature must cover, rebuilt from what the verifier
 * itself sent (never from what the wallet says): ISO/IEC 18013-7 Annex C for an `org-iso-mdoc` answer
 * (its EncryptionInfo and the page's origin), OID4VP 1.0 B.2.6.2 for an OpenID4VP answer over the
 * Digital Credentials API (its origin), B.2.6.1 for one posted to the response_uri.
 */
export function sessionTranscriptOf(checks: Checks): Uint8Array {
  const { origin, responseUri, responseEncryptionKey, annexC } = checks.transaction;
  if (annexC && origin) return annexCSessionTranscript({ encryptionInfo: annexC.encryptionInfo, origin });
  if (origin) return oid4vpDcApiSessionTranscript({ origin, nonce: checks.nonce, responseEncryptionKey });
  if (responseUri)
    return oid4vpSessionTranscript({
      clientId: checks.clientId,
      nonce: checks.nonce,
      responseUri,
      responseEncryptionKey,
    });
  return reject('unsupported_format', 'an mdoc can only be verified for a response_uri or a web origin');
}
