import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyEncryption } from '../keys/key-encryption.js';
import { OidcClient } from '../oidc/oidc-client.entity.js';
import { registerOidcClient } from '../oidc/oidc-client-registry.js';
import { TenantConsole } from './tenant-console.entity.js';

/** What the console's relying party reads from the presented employee credential. */
export const CONSOLE_CLAIMS = {
  given_name: ['mandatee', 'firstName'],
  family_name: ['mandatee', 'lastName'],
  email: ['mandatee', 'email'],
  powers: ['power'],
  // The credential's issuer-signed status reference: tells which credential of ours signed in.
  credential_status: ['status', 'status_list'],
};

export const consoleCallbackUrl = (publicUrl: string, tenantId: string) =>
  `${publicUrl}/console/t/${encodeURIComponent(tenantId)}/callback`;

export interface ConsoleClient {
  clientId: string;
  clientSecret: string;
}

const sealingKid = (tenantId: string) => `console-oidc:${tenantId}`;

/**
 * The console's relying party of a tenant at the service's own OpenID provider: registered the first
 * time someone signs in (through the same registry as any relying party, audited), its secret kept
 * sealed with KEY_ENCRYPTION_KEY beside the console settings. A client deleted since is made anew.
 */
export async function consoleClientOf(
  em: EntityManager,
  sealing: KeyEncryption,
  settings: TenantConsole,
  publicUrl: string,
  credentialConfigurationId: string,
): Promise<ConsoleClient> {
  const { tenantId } = settings;
  if (settings.oidcClientId && settings.oidcClientSecretSealed) {
    const existing = await em.findOne(OidcClient, { id: settings.oidcClientId, tenantId });
    if (existing) {
      const secret = sealing.open(settings.oidcClientSecretSealed, sealingKid(tenantId)).toString('utf8');
      return { clientId: existing.id, clientSecret: secret };
    }
  }
  const { client, secret } = await registerOidcClient(
    em,
    tenantId,
    {
      client_name: 'Administration console',
      redirect_uris: [consoleCallbackUrl(publicUrl, tenantId)],
      token_endpoint_auth_method: 'client_secret_basic',
      credential_configuration_id: credentialConfigurationId,
      claims_mapping: CONSOLE_CLAIMS,
    },
    'console',
  );
  if (!secret) throw new Error('a client_secret_basic client has a secret');
  await em.nativeUpdate(
    TenantConsole,
    { tenantId },
    {
      oidcClientId: client.id,
      oidcClientSecretSealed: sealing.seal(Buffer.from(secret, 'utf8'), sealingKid(tenantId)),
      updatedAt: new Date(),
    },
  );
  return { clientId: client.id, clientSecret: secret };
}
