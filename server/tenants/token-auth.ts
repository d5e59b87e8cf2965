import { createHash, timingSafeEqual } from 'node:crypto';
import type { EntityManagerSource } from '../cache/node-caches.js';
import type { TokenKind, TokenScope } from './api-token.entity.js';
import { cachedToken } from './tenant-cache.js';
import { parseToken, secretMatches } from './token-secret.js';

export interface TokenPrincipal {
  tenantId: string;
  tokenId: string;
  kind: TokenKind;
  scope: TokenScope;
}

/** Methods that change nothing: the only ones a `read` token may use. */
const READS = new Set(['GET', 'HEAD']);

/** Whether the principal may send a request of this method: a read-only token only reads. */
export const mayUse = (p: TokenPrincipal, method: string) => p.scope === 'full' || READS.has(method);

/**
 * Resolves a presented bearer token to its tenant, or undefined when it is malformed, unknown, of
 * another kind, expired or revoked. Callers answer all of these the same way, so nothing tells which.
 * The row comes from the node's cache; expiry is checked here at every use, revocation invalidates it.
 */
export async function authenticateToken(
  em: EntityManagerSource,
  presented: string,
  kind: TokenKind,
  now = new Date(),
): Promise<TokenPrincipal | undefined> {
  const parsed = parseToken(presented);
  if (!parsed || parsed.kind !== kind) return undefined;
  const row = await cachedToken(em, parsed.id, kind);
  if (!row || !secretMatches(parsed.secret, row.secretHash)) return undefined;
  if (row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return undefined;
  return { tenantId: row.tenantId, tokenId: row.id, kind, scope: row.scope };
}

/** The scheme (lower case) and the credentials of `Authorization: <scheme> <credentials>`, if that is its form. */
export function authorizationOf(header: string | undefined): { scheme: string; token: string } | undefined {
  const m = /^([A-Za-z][\w-]*) +(\S+) *$/.exec(header ?? '');
  return m ? { scheme: (m[1] as string).toLowerCase(), token: m[2] as string } : undefined;
}

/** Reads `Authorization: Bearer <token>`; anything else is no token. */
export function bearerToken(header: string | undefined): string | undefined {
  const presented = authorizationOf(header);
  return presented?.scheme === 'bearer' ? presented.token : undefined;
}

/**
 * Whether `Authorization: Bearer <secret>` presents `secret` (a configured one, like ADMIN_TOKEN),
 * or undefined when no secret is set. Both sides are hashed first, so the constant-time comparison
 * takes the same time whatever the presented length.
 */
export function bearerSecretCheck(
  secret: string | undefined,
): ((header: string | undefined) => boolean) | undefined {
  if (!secret) return undefined;
  const expected = createHash('sha256').update(secret).digest();
  return (header) => {
    const presented = bearerToken(header);
    return (
      presented !== undefined && timingSafeEqual(createHash('sha256').update(presented).digest(), expected)
    );
  };
}
