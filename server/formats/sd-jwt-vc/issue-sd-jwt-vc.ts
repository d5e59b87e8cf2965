import type { Signer } from '../../keys/signer.js';
import { disclosureFrame } from './disclosure-frame.js';
import { discloseSelectively } from './selective-disclosure.js';

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
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

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
  const frame = disclosureFrame(input.selectivelyDisclosable, input.claims);
  const { payload: disclosed, disclosures } = discloseSelectively(input.claims, frame);
  const payload = {
    ...disclosed,
    iss: input.issuer,
    vct: input.vct,
    iat: seconds(input.issuedAt),
    exp: seconds(input.expiresAt),
    ...(input.holderJwk ? { cnf: { jwk: input.holderJwk } } : {}),
    status: { status_list: input.status },
    _sd_alg: 'sha-256',
  };
  // A signer without certificates (a test's in-memory key) signs without x5c rather than an empty one.
  const header = { typ: 'dc+sd-jwt', alg: 'ES256', kid, ...(x5c.length ? { x5c } : {}) };
  const input64 = `${encode(header)}.${encode(payload)}`;
  const { signature } = await signer.sign('issuer', Buffer.from(input64), kid);
  return `${input64}.${Buffer.from(signature).toString('base64url')}~${disclosures.map((d) => `${d}~`).join('')}`;
}
