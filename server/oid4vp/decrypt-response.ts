import { createPrivateKey } from 'node:crypto';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { CONTROL_CHARACTERS } from '../http/request-hygiene.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import type { PresentationSession } from '../verification/presentation-session.entity.js';
import type { VerifierServices } from '../verification/verifier-services.js';

/**
 * The `kid` of an encrypted response (OID4VP 1.0 section 8.3): it names the session's key. A kid
 * with control characters names no session, and must not reach SQL (NUL cannot).
 */
export function responseKid(jwe: string): string | undefined {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(jwe).kid;
  } catch {
    throw invalidRequest('response is not a JWE');
  }
  return kid && !CONTROL_CHARACTERS.test(kid) ? kid : undefined;
}

/** The content encryptions the session's client_metadata lists, and the only ones accepted. */
const CONTENT_ENCRYPTIONS = ['A128GCM', 'A256GCM'];

/**
 * The JSON payload of a response encrypted to the session's own ECDH-ES key, with either content
 * encryption HAIP 1.0 makes verifiers accept (A128GCM, A256GCM).
 */
export async function decryptResponse(
  s: VerifierServices,
  session: PresentationSession,
  jwe: string,
): Promise<Record<string, unknown>> {
  if (!session.encKeySealed || !session.encKid)
    throw invalidRequest('response is not encrypted to a key of a session');
  const key = createPrivateKey({
    key: s.sealing.open(session.encKeySealed, session.encKid),
    format: 'der',
    type: 'pkcs8',
  });
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwe);
  } catch {
    throw invalidRequest('response is not a JWE');
  }
  const { alg, enc } = header;
  if (alg !== 'ECDH-ES' || !CONTENT_ENCRYPTIONS.includes(String(enc)))
    throw invalidRequest(
      `response must be ECDH-ES with ${CONTENT_ENCRYPTIONS.join(' or ')}, not ${String(alg)} with ${String(enc)}`,
    );
  let payload: unknown;
  try {
    const { plaintext } = await compactDecrypt(jwe, key, {
      keyManagementAlgorithms: ['ECDH-ES'],
      contentEncryptionAlgorithms: CONTENT_ENCRYPTIONS,
    });
    payload = JSON.parse(new TextDecoder().decode(plaintext));
  } catch {
    throw invalidRequest('response cannot be decrypted, or is not JSON');
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw invalidRequest('the decrypted response is not a JSON object');
  return payload as Record<string, unknown>;
}
