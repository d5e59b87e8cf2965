import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import type { JWK } from 'jose';
import type { MdocSigningKey } from '../../server/formats/mso-mdoc/document-signing-key.js';
import { certificate, type Node } from './issuer-x509.js';

/**
 * An mdoc issuer's PKI made in the test (ISO 18013-5 Annex B in outline): an IACA root with a
 * country, and a document signer certificate it issued, whose key signs MSOs.
 */
export interface MdocPki {
  iaca: Node;
  documentSigner: Node;
  /** The document signer as signIssuerSigned takes it: x5chain is the leaf alone. */
  signingKey: MdocSigningKey;
}

export async function mdocPki(
  name = 'Test',
  o: { notBefore?: Date; notAfter?: Date; at?: Date } = {},
): Promise<MdocPki> {
  const iaca = await certificate({
    subject: `C=DE, O=${name}, CN=${name} IACA`,
    ca: true,
    pathLength: 0,
    at: o.at,
  });
  const documentSigner = await certificate({
    subject: `C=DE, O=${name}, CN=${name} Document Signer`,
    issuer: iaca,
    ...o,
  });
  return { iaca, documentSigner, signingKey: signingKeyOf(documentSigner) };
}

/** A node's key and certificate (alone) as an MdocSigningKey, signing with node:crypto. */
export function signingKeyOf(node: Node, chain: Node[] = [node]): MdocSigningKey {
  const key = KeyObject.from(node.keys.privateKey);
  return {
    x5chain: chain.map((n) => new Uint8Array(n.cert.rawData)),
    sign: async (data) => new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })),
  };
}

/** A holder's device key pair, as JWKs. */
export function deviceKeyPair(): { publicJwk: JWK; privateJwk: JWK } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicJwk: publicKey.export({ format: 'jwk' }) as JWK,
    privateJwk: privateKey.export({ format: 'jwk' }) as JWK,
  };
}
