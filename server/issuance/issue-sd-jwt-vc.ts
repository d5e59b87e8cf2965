import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { Signer } from '../keys/signer.js';
import { disclosureFrame } from './disclosure-frame.js';

export interface SdJwtVcInput {
  issuer: string;
  vct: string;
  claims: Record<string, unknown>;
  selectivelyDisclosable: string[];
  issuedAt: Date;
  expiresAt: Date;
  status: { idx: number; uri: string };
  /** The holder's public key; absent for an unbound credential (direct delivery without a key). */
  holderJwk?: Record<string, unknown> | undefined;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * Signs an SD-JWT VC with the issuer key: header `typ: dc+sd-jwt`, `alg: ES256`, `kid` of a key
 * published at /.well-known/jwt-vc-issuer and `x5c`, that key's certificate chain without the trust
 * anchor (HAIP "Issuer identification and key resolution", SD-JWT VC section 3.5), whose leaf names
 * `iss`; claims `iss`, `vct`, `iat`, `exp`, `cnf.jwk`,
 * `status.status_list` and the payload, disclosable as the configuration says.
 */
export async function issueSdJwtVc(signer: Signer, input: SdJwtVcInput): Promise<string> {
  const kid = await signer.activeKid('issuer');
  // Pinned to the same kid as the signature, so a rotation in between cannot mismatch them.
  const x5c = await signer.certificateChain('issuer', kid);
  const sdjwt = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
    signAlg: 'ES256',
    signer: async (data: string) => {
      const { signature } = await signer.sign('issuer', new TextEncoder().encode(data), kid);
      return Buffer.from(signature).toString('base64url');
    },
  });
  const payload = {
    ...input.claims,
    iss: input.issuer,
    vct: input.vct,
    iat: seconds(input.issuedAt),
    exp: seconds(input.expiresAt),
    ...(input.holderJwk ? { cnf: { jwk: input.holderJwk } } : {}),
    status: { status_list: input.status },
  };
  const frame = disclosureFrame(input.selectivelyDisclosable, input.claims);
  // The frame is computed from the payload's own shape, which the library's static typing cannot follow.
  return sdjwt.issue(payload, frame as never, {
    // A signer without certificates (a test's in-memory key) signs without x5c rather than an empty one.
    header: { typ: 'dc+sd-jwt', kid, ...(x5c.length ? { x5c } : {}) },
  });
}
