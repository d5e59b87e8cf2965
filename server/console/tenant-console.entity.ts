import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ConsolePower } from '../../contract/admin/console-settings.js';

/**
 * A tenant's console: the powers that make an administrator or an auditor, and the console's own
 * relying party at the service's OpenID provider (made at the first sign-in; its secret sealed with
 * KEY_ENCRYPTION_KEY, so that every node can authenticate as it and nobody can read it in the table).
 */
export const TenantConsole = defineEntity({
  name: 'TenantConsole',
  tableName: 'tenant_console',
  properties: {
    tenantId: p.string().primary(),
    administratorPower: p.json<ConsolePower>(),
    auditorPower: p.json<ConsolePower>().nullable(),
    oidcClientId: p.string().nullable(),
    oidcClientSecretSealed: p.string().nullable(),
    updatedAt: p.datetime(),
  },
});

export type TenantConsole = InferEntity<typeof TenantConsole>;
