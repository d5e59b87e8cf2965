import { createHash } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { TrustListError } from '../read-list.js';
import { signatureVerifiesWith } from './signature-verification.js';
import { base64Of, DSIG_NS, elementsAt } from './xml-lookup.js';

/**
 * Decides who signed the list, and whether that is someone the operator pinned.
 *
 * The candidates are the certificates in the signature's `KeyInfo/X509Data` (TS 119 612 clause 5.7.1
 * has the signer's certificate there). A candidate counts as pinned when its DER's SHA-256 equals the
 * SHA-256 of one of the pinned certificates — the whole certificate, not a key or a name, so a
 * re-issued certificate for the same key is a deliberate operator change. The signature is then
 * verified with the pinned candidate's key only.
 *
 * Returns the SHA-256 (hex) of the pinned certificate the signature verifies with. Otherwise:
 * `signer_not_pinned` when the signature does verify, but only with a certificate nobody pinned (a
 * list re-signed by a new operator key, or by an impostor); `signature_invalid` when it verifies with
 * nothing it names (changed content, a broken or foreign signature, no certificate at all).
 */
export async function pinnedSigner(
  document: Document,
  signature: Element,
  pinned: readonly string[],
): Promise<string> {
  const candidates = elementsAt(signature, DSIG_NS, 'KeyInfo', 'X509Data', 'X509Certificate')
    .map(base64Of)
    .filter((b64): b64 is string => b64 !== undefined)
    .map((b64) => Buffer.from(b64, 'base64'))
    .map((der) => ({ der, sha256: sha256Hex(der) }));
  if (candidates.length === 0) {
    throw new TrustListError('signature_invalid', 'the signature names no X.509 certificate in its KeyInfo');
  }
  const pinnedHashes = new Set(
    pinned.map((b64) => sha256Hex(Buffer.from(b64.replace(/\s+/g, ''), 'base64'))),
  );
  const pinnedCandidates = candidates.filter((candidate) => pinnedHashes.has(candidate.sha256));
  for (const candidate of pinnedCandidates) {
    if (await signatureVerifiesWith(document, signature, candidate.der)) return candidate.sha256;
  }
  if (pinnedCandidates.length === 0) {
    for (const candidate of candidates) {
      if (await signatureVerifiesWith(document, signature, candidate.der)) {
        throw new TrustListError(
          'signer_not_pinned',
          `the list is signed by the certificate with SHA-256 ${candidate.sha256}, which is not pinned`,
        );
      }
    }
  }
  throw new TrustListError('signature_invalid', 'the signature does not verify');
}

export const sha256Hex = (der: Buffer): string => createHash('sha256').update(der).digest('hex');
