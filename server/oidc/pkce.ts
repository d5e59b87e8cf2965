import { createHash, timingSafeEqual } from 'node:crypto';
import { CODE_VERIFIER } from '../../contract/oidc/pkce.js';

/**
 * RFC 7636 section 4.6 with S256: whether `verifier` is a well-formed code_verifier whose base64url
 * SHA-256 is `challenge`, compared in constant time. Both authorization servers (the verifier's
 * OpenID provider and the issuer's authorization code flow) check PKCE with this.
 */
export function pkceS256Matches(verifier: string, challenge: string): boolean {
  if (!CODE_VERIFIER.test(verifier)) return false;
  const actual = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
