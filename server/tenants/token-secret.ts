import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { TokenKind } from './api-token.entity.js';

/**
 * Bearer tokens look like `cs_int_<id>_<secret>`: the id (a UUID without dashes) finds the row, the
 * 256-bit secret is checked against the stored SHA-256 in constant time. The prefix tells secret
 * scanners and humans what leaked.
 */
const PREFIX: Record<TokenKind, string> = { integrator: 'cs_int_', scim: 'cs_scim_' };
const SHAPE = /^cs_(int|scim)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface MintedToken {
  id: string;
  token: string;
  secretHash: string;
}

export function mintToken(kind: TokenKind): MintedToken {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${PREFIX[kind]}${id.replaceAll('-', '')}_${secret}`, secretHash: hashSecret(secret) };
}

export interface ParsedToken {
  kind: TokenKind;
  id: string;
  secret: string;
}

export function parseToken(token: string): ParsedToken | undefined {
  const m = SHAPE.exec(token);
  if (!m) return undefined;
  const [, kind, hex, secret] = m as unknown as [string, string, string, string];
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { kind: kind === 'int' ? 'integrator' : 'scim', id, secret };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  // The digest's bytes as they are: hex-encoding them only to decode the string again cost a third
  // of the check.
  const a = createHash('sha256').update(secret).digest();
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Constant-time comparison of two strings of any length (both are hashed first, so neither length
 * nor a common prefix shows in the time taken).
 */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(a), 'hex'), Buffer.from(hashSecret(b), 'hex'));
}
