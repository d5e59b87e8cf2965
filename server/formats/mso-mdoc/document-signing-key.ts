import type { Signer } from '../../keys/signer.js';
import type { KeyPurpose } from '../../keys/signing-key.entity.js';

/**
 * A document signer (ISO 18013-5 Annex B: the key that signs MSOs, certified by the issuer's IACA
 * root) as signIssuerSigned needs it: its certificate chain and a way to sign with its key. Crypto
 * stays with whoever holds the key.
 */
export interface MdocSigningKey {
  /** DER certificates, the document signer's first, without the IACA root (the verifier has it). */
  readonly x5chain: readonly Uint8Array[];
  /** An ES256 signature (IEEE P1363 r||s, 64 bytes) over `data` with the key of `x5chain[0]`. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/**
 * The active key of `purpose` (the document signer's purpose, e.g. `document-signer`) as an
 * MdocSigningKey. Its kid is read once and pinned for both the chain and every signature, so a key
 * rotation between the two cannot pair one key's certificate with another key's signature. Take
 * one per issuance request (or batch): it reads the chain once.
 */
export async function documentSigningKey(
  signer: Pick<Signer, 'sign' | 'certificateChain' | 'activeKid'>,
  purpose: KeyPurpose | (string & {}),
): Promise<MdocSigningKey> {
  // The purpose type is the key store's; a new purpose such as 'document-signer' arrives with it.
  const keyPurpose = purpose as KeyPurpose;
  const kid = await signer.activeKid(keyPurpose);
  const chain = await signer.certificateChain(keyPurpose, kid);
  if (chain.length === 0) throw new Error(`the ${purpose} key ${kid} has no certificate chain`);
  return {
    x5chain: chain.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
    sign: async (data) => (await signer.sign(keyPurpose, data, kid)).signature,
  };
}
