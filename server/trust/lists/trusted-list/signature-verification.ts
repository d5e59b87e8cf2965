import { webcrypto, X509Certificate } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { SignedXml } from 'xadesjs';
import './xades-engine.js';

/**
 * Whether the list's signature verifies with the public key of one given certificate, using xadesjs:
 * every Reference's digest is recomputed over what it selects (for the list, the root element with
 * the enveloped signature removed, canonicalized), then the SignedInfo signature value is checked.
 *
 * The key is imported here with the parameters the SignatureMethod names (plus the certificate's curve
 * for ECDSA, which xmldsigjs would otherwise not know when it re-imports a key), so the signature is
 * checked with the pinned certificate's key and never with whatever else KeyInfo carries. Any failure
 * to process the signature counts as "does not verify": the caller turns that into `signature_invalid`.
 */
export async function signatureVerifiesWith(
  document: Document,
  signature: Element,
  certificateDer: Buffer,
): Promise<boolean> {
  try {
    // xadesjs is typed against the browser DOM; xmldom's nodes are what it works on under Node.
    const signed = new SignedXml(document as unknown as ConstructorParameters<typeof SignedXml>[0]);
    signed.LoadXml(signature as unknown as Parameters<SignedXml['LoadXml']>[0]);
    const method = signed.Algorithm as { name: string; hash?: { name: string } } | undefined;
    if (!method || method.hash?.name.toUpperCase() === 'SHA-1') return false;
    const publicKey = new X509Certificate(certificateDer).publicKey;
    const params = method.name === 'ECDSA' ? { ...method, namedCurve: webCryptoCurve(publicKey) } : method;
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    const key = await webcrypto.subtle.importKey('spki', spki, params, true, ['verify']);
    signed.Algorithm = params;
    return await signed.Verify(key as unknown as Parameters<SignedXml['Verify']>[0]);
  } catch {
    return false;
  }
}

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

function webCryptoCurve(publicKey: X509Certificate['publicKey']): string {
  const curve = publicKey.asymmetricKeyDetails?.namedCurve;
  const named = curve ? CURVES[curve] : undefined;
  if (!named) throw new Error(`unsupported curve ${curve}`);
  return named;
}
