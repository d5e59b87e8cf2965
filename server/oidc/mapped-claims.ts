import { createHash } from 'node:crypto';
import { canonicalJson } from '../audit/canonical-json.js';
import type { ClaimPath } from './oidc-client.entity.js';

/**
 * The value at a DCQL claims path (OID4VP 1.0 section 7.1): a string selects an object member, a
 * number an array element, null every element of an array. Undefined when nothing is there.
 */
export function readClaimPath(value: unknown, path: ClaimPath): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (head === null) {
    if (!Array.isArray(value)) return undefined;
    const found = value.map((v) => readClaimPath(v, rest)).filter((v) => v !== undefined);
    return found.length ? found : undefined;
  }
  if (typeof head === 'number') return Array.isArray(value) ? readClaimPath(value[head], rest) : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, head)
    ? readClaimPath((value as Record<string, unknown>)[head], rest)
    : undefined;
}

/** The ID token and userinfo claims a client's mapping reads from the verified credential's claims. */
export function mappedClaims(
  credentialClaims: Record<string, unknown>,
  mapping: Record<string, ClaimPath>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(mapping)) {
    const value = readClaimPath(credentialClaims, path);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * The `sub` of a holder within a tenant: a hash of the tenant and the mandatee's e-mail (else of all
 * disclosed claims), so every relying party of the tenant sees the same stable, opaque subject.
 */
export function subjectOf(tenantId: string, credentialClaims: Record<string, unknown>): string {
  const email = (credentialClaims.mandatee as { email?: unknown } | undefined)?.email;
  const key = typeof email === 'string' ? email : canonicalJson(credentialClaims);
  return createHash('sha256').update(`${tenantId}:${key}`).digest('base64url');
}
