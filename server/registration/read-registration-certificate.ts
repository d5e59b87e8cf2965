import { createHash } from 'node:crypto';
import { compactVerify } from 'jose';
import { validationError } from '../domain-errors.js';
import { decodeJws } from '../keys/es256-jws.js';
import { type Certificate, parseCertificate } from '../keys/x509-certificate.js';

/** Every refusal names the body's one field, so the operator sees what is wrong with what they sent. */
export const refuse = (message: string) => validationError([{ field: 'certificate', message }]);

/**
 * ETSI TS 119 475 section 5.2 types a registration certificate in JWT form `rc-wrp+jwt`; RFC 7515
 * section 4.1.9 lets `typ` carry the media type with its `application/` prefix, case-insensitively.
 */
const TYP = 'rc-wrp+jwt';
/** What the brief allows of TS 119 475's list (it also names ES512, PS384/512 and RS*). */
const ALGORITHMS = ['ES256', 'ES384', 'PS256'];
const MAX_CHAIN = 10;

/** A registration certificate that is well formed, signed by its x5c leaf, and valid now. */
export interface ReadRegistrationCertificate {
  jwt: string;
  payload: Record<string, unknown>;
  /** The registrar's chain as the JWT carries it (standard base64 DER, leaf first). */
  x5c: string[];
  leaf: Certificate;
  sha256: string;
  issuedAt: Date | null;
  /** The earlier of `exp` and the leaf's notAfter: past either, wallets refuse it. */
  expiresAt: Date;
}

const time = (payload: Record<string, unknown>, claim: string): number | undefined => {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse(`its ${claim} is not a number`);
  return value;
};

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The x5c header: 1 to 10 certificates, each issued by the next (whether the top is trusted is not asked here). */
function chainOf(x5c: unknown, now: number): { x5c: string[]; leaf: Certificate } {
  if (!Array.isArray(x5c) || x5c.length === 0 || x5c.length > MAX_CHAIN)
    throw refuse(`its x5c header is not an array of 1 to ${MAX_CHAIN} certificates (the registrar’s chain)`);
  const certificates = x5c.map((entry, i) => {
    try {
      if (typeof entry !== 'string') throw new Error(`x5c entry ${i} is not a string`);
      return parseCertificate(entry, `x5c entry ${i}`);
    } catch (e) {
      throw refuse((e as Error).message);
    }
  });
  for (const [i, cert] of certificates.entries()) {
    const next = certificates[i + 1];
    if (next && !(cert.node.checkIssued(next.node) && cert.node.verify(next.node.publicKey)))
      throw refuse(`x5c entry ${i} (${cert.subject}) is not issued by x5c entry ${i + 1} (${next.subject})`);
  }
  const leaf = certificates[0] as Certificate;
  if (leaf.notAfter < now) throw refuse(`the registrar’s certificate (${leaf.subject}) has expired`);
  if (leaf.notBefore > now) throw refuse(`the registrar’s certificate (${leaf.subject}) is not valid yet`);
  return { x5c: x5c as string[], leaf };
}

/**
 * Reads a registration certificate as an operator imports it: a compact JWS (JAdES compact, ETSI TS
 * 119 182-1) typed `rc-wrp+jwt`, signed with ES256, ES384 or PS256 by the key of the leaf of its
 * `x5c` chain, with a JSON payload that has not expired. Whether the chain leads to a registrar
 * worth trusting is the caller's question (registrar-trust.ts). Throws a validation error for the
 * `certificate` field that says what is wrong.
 */
export async function readRegistrationCertificate(
  compact: string,
  now = new Date(),
): Promise<ReadRegistrationCertificate> {
  const jwt = compact.trim();
  let decoded: ReturnType<typeof decodeJws>;
  try {
    decoded = decodeJws(jwt);
  } catch (e) {
    throw refuse(`not a JWT: ${(e as Error).message}`);
  }
  const { header, payload } = decoded;
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase().replace(/^application\//, '') : '';
  if (typ !== TYP)
    throw refuse(
      `its typ is ${JSON.stringify(header.typ ?? null)}; a registration certificate (ETSI TS 119 475) is typed ${TYP}`,
    );
  const alg = String(header.alg);
  if (!ALGORITHMS.includes(alg)) throw refuse(`its alg ${alg} is not one of ${ALGORITHMS.join(', ')}`);
  const seconds = now.getTime() / 1000;
  const { x5c, leaf } = chainOf(header.x5c, seconds);
  try {
    await compactVerify(jwt, leaf.node.publicKey, { algorithms: [alg] });
  } catch {
    throw refuse(`its signature does not verify with the key of its x5c leaf (${leaf.subject})`);
  }
  const exp = time(payload, 'exp');
  const nbf = time(payload, 'nbf');
  const iat = time(payload, 'iat');
  if (exp !== undefined && exp <= seconds) throw refuse(`it expired at ${iso(exp)}`);
  if (nbf !== undefined && nbf > seconds) throw refuse(`it is not valid before ${iso(nbf)}`);
  const end = Math.min(exp ?? leaf.notAfter, leaf.notAfter);
  return {
    jwt,
    payload,
    x5c,
    leaf,
    sha256: createHash('sha256').update(jwt).digest('hex'),
    issuedAt: iat === undefined ? null : new Date(iat * 1000),
    expiresAt: new Date(end * 1000),
  };
}
