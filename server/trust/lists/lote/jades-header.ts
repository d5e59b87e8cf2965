import { createHash } from 'node:crypto';
import { TrustListError } from '../read-list.js';

/**
 * What the protected header of a LoTE's JAdES signature must say before its signature is worth checking:
 * an asymmetric algorithm this reader accepts, the signer's certificate (`x5c`) or its SHA-256 digest
 * (`x5t#S256`), and only critical header parameters that are understood (RFC 7515, 4.1.11).
 */

/**
 * JAdES (ETSI TS 119 182-1) and ETSI TS 119 312 signature algorithms. Never `none`, never a MAC (`HS*`):
 * a list must be signed by its operator's key, not by a secret anyone holding the list could share.
 */
export const LOTE_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'RS256'] as const;
export type LoteAlgorithm = (typeof LOTE_ALGORITHMS)[number];

/**
 * Critical header parameters this reader implements. JAdES marks its own header parameters critical;
 * of those a baseline B LoTE signature uses `sigT`, the claimed signing time, which is checked to be a
 * date here and otherwise only informative (a B-B signature has no proof of when it was made). `b64`
 * (RFC 7797) is refused: an unencoded payload is not how a LoTE is published. `sigD` (a detached
 * payload) and anything else are refused as not understood.
 */
const UNDERSTOOD_CRITICAL = new Set(['sigT']);

export interface LoteSignatureHeader {
  alg: LoteAlgorithm;
  /**
   * The SHA-256 (hex) of the signing certificate the header names, by `x5c[0]` or `x5t#S256`. The rest of
   * an `x5c` chain is not needed: the signer is trusted because it is pinned, not through a CA.
   */
  signer: string;
}

const sha256Hex = (der: Buffer) => createHash('sha256').update(der).digest('hex');

const invalid = (message: string) => new TrustListError('signature_invalid', message);

/** Standard base64 only (RFC 7515, 4.1.6): base64url or whitespace in `x5c` is refused, not repaired. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function checkCritical(header: Record<string, unknown>) {
  if (!('crit' in header)) return;
  const { crit } = header;
  if (!Array.isArray(crit) || crit.length === 0 || !crit.every((name) => typeof name === 'string')) {
    throw invalid('the JWS "crit" header is not a non-empty list of names');
  }
  if (new Set(crit).size !== crit.length) throw invalid('the JWS "crit" header repeats a name');
  for (const name of crit as string[]) {
    if (!UNDERSTOOD_CRITICAL.has(name))
      throw invalid(`the JWS marks "${name}" critical, which is not supported`);
    if (!(name in header)) throw invalid(`the JWS marks "${name}" critical but does not carry it`);
  }
}

function checkSigningTime(header: Record<string, unknown>) {
  if (!('sigT' in header)) return;
  const { sigT } = header;
  if (typeof sigT !== 'string' || Number.isNaN(Date.parse(sigT))) {
    throw invalid('the JAdES "sigT" header is not a date-time');
  }
}

function readSigner(header: Record<string, unknown>): string {
  const x5c = header.x5c;
  const x5tS256 = header['x5t#S256'];
  if (x5tS256 !== undefined && (typeof x5tS256 !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x5tS256))) {
    throw invalid('the JWS "x5t#S256" header is not a base64url SHA-256 digest');
  }
  const digest = x5tS256 === undefined ? undefined : Buffer.from(x5tS256, 'base64url').toString('hex');
  if (x5c === undefined) {
    if (digest === undefined) {
      throw invalid('the JWS names no signing certificate (JAdES requires "x5c" or "x5t#S256")');
    }
    return digest;
  }
  if (!Array.isArray(x5c) || x5c.length === 0)
    throw invalid('the JWS "x5c" header is not a list of certificates');
  if (!x5c.every((entry) => typeof entry === 'string' && BASE64.test(entry))) {
    throw invalid('the JWS "x5c" header holds something other than standard base64 DER');
  }
  const sha256 = sha256Hex(Buffer.from(x5c[0] as string, 'base64'));
  // Both present: they must name the same certificate, or the header contradicts itself.
  if (digest !== undefined && digest !== sha256) {
    throw invalid('the JWS "x5t#S256" header does not match its "x5c" signing certificate');
  }
  return sha256;
}

/** Checks the protected header of a LoTE signature; throws `signature_invalid` with the reason. */
export function checkLoteSignatureHeader(header: unknown): LoteSignatureHeader {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw invalid('the JWS protected header is not a JSON object');
  }
  const fields = header as Record<string, unknown>;
  const { alg } = fields;
  if (typeof alg !== 'string' || !(LOTE_ALGORITHMS as readonly string[]).includes(alg)) {
    throw invalid(`the JWS algorithm ${JSON.stringify(alg)} is not accepted for a LoTE`);
  }
  if (fields.b64 !== undefined) throw invalid('an unencoded JWS payload ("b64") is not accepted for a LoTE');
  checkCritical(fields);
  checkSigningTime(fields);
  return { alg: alg as LoteAlgorithm, signer: readSigner(fields) };
}
