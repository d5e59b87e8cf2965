import type { EntityManager } from '@mikro-orm/postgresql';
import { listConfigurations } from '../../credential-configurations/credential-configuration-registry.js';
import { credentialScope } from '../issuer-metadata.js';
import { OAuthError } from '../oauth-error.js';

export const invalidScope = (d: string) => new OAuthError(400, 'invalid_scope', d);

/**
 * The credential configurations a `scope` parameter asks for, through the `scope` each has in the
 * issuer metadata, in the request's order and each once. OID4VCI 1.0 section 5.1.2: every scope value
 * is a request of its own, and values this issuer does not know are ignored (`openid`, a scope of
 * another issuer, a typo), so a request naming one known configuration among others still stands.
 *
 * With none known, RFC 6749 section 3.3 leaves a default or `invalid_scope`: there is no default
 * (HAIP 1.0 section 4.3 makes the wallet name the credential type by scope), so it is invalid_scope.
 * `authorization_details` (RFC 9396) is not supported, as the metadata says by not listing its
 * types; it is ignored like any unknown parameter, and the error says so when only it was sent.
 */
export async function requestedConfigurations(
  em: EntityManager,
  scope: string | undefined,
  authorizationDetails: unknown,
): Promise<string[]> {
  const byScope = new Map<string, string[]>();
  for (const c of await listConfigurations(em))
    byScope.set(credentialScope(c.id), [...(byScope.get(credentialScope(c.id)) ?? []), c.id]);
  const values = new Set((scope ?? '').split(' ').filter(Boolean));
  const known = new Set([...values].flatMap((value) => byScope.get(value) ?? []));
  if (known.size) return [...known];
  throw invalidScope(
    authorizationDetails === undefined
      ? 'no scope value names a credential configuration of this issuer (its scope in the metadata)'
      : 'authorization_details is not supported: name the credential configuration by its scope',
  );
}
