import { etagOf } from '../directory/if-match.js';
import type { ScimUser } from '../directory/scim-user.entity.js';
import type { CredentialState } from '../directory/user-credential-state.js';
import { CREDENTIAL_EXTENSION_URN } from './schema/credential-extension.js';

export interface UserViewExtras {
  groups: { id: string; displayName: string }[];
  credential: CredentialState;
  /**
   * For direct delivery: the credential signed by this very request, or the one last signed when the
   * client asked for it by name (`attributes=<extension URN>:credential`).
   */
  issuedCredential?: string | null | undefined;
}

/** The SCIM representation of a stored user (RFC 7643 section 4.1), with `groups` and `meta`. */
export function userView(
  user: Pick<ScimUser, 'id' | 'resource' | 'active' | 'createdAt' | 'updatedAt' | 'version'>,
  baseUrl: string,
  extras: UserViewExtras,
): Record<string, unknown> {
  const { schemas: _stored, ...attributes } = user.resource as { schemas?: unknown } & Record<
    string,
    unknown
  >;
  const schemas = ['urn:ietf:params:scim:schemas:core:2.0:User'];
  if (attributes['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']) {
    schemas.push('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User');
  }
  schemas.push(CREDENTIAL_EXTENSION_URN);
  const location = `${baseUrl}/Users/${user.id}`;
  return {
    schemas,
    id: user.id,
    ...attributes,
    active: user.active,
    groups: extras.groups.map((g) => ({
      value: g.id,
      display: g.displayName,
      $ref: `${baseUrl}/Groups/${g.id}`,
      type: 'direct',
    })),
    [CREDENTIAL_EXTENSION_URN]: {
      status: extras.credential.status,
      ...(extras.credential.issuanceId ? { issuanceId: extras.credential.issuanceId } : {}),
      credentialIds: extras.credential.credentialIds,
      ...(extras.credential.reason ? { reason: extras.credential.reason } : {}),
      ...(extras.issuedCredential ? { credential: extras.issuedCredential } : {}),
    },
    meta: {
      resourceType: 'User',
      created: user.createdAt.toISOString(),
      lastModified: user.updatedAt.toISOString(),
      location,
      version: etagOf(user.version),
    },
  };
}
