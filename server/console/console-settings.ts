import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConsoleSettingsInput } from '../../contract/admin/console-settings.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { getTenant } from '../tenants/tenant-service.js';
import { TenantConsole } from './tenant-console.entity.js';

export const consoleSignInUrl = (publicUrl: string, tenantId: string) =>
  `${publicUrl}/console/t/${encodeURIComponent(tenantId)}/sign-in`;

/** The tenant's console settings; a 404 when the tenant has none (no console sign-in). */
export async function getConsoleSettings(em: EntityManager, tenantId: string): Promise<TenantConsole> {
  await getTenant(em, tenantId);
  const row = await em.findOne(TenantConsole, { tenantId });
  if (!row) throw notFound(`console of tenant ${tenantId}`);
  return row;
}

/** Sets which powers let the tenant's employees in; audited, as every change to who may act is. */
export async function putConsoleSettings(
  em: EntityManager,
  tenantId: string,
  input: ConsoleSettingsInput,
  actor: string,
): Promise<TenantConsole> {
  return em.transactional(async (tx) => {
    await getTenant(tx, tenantId);
    const row =
      (await tx.findOne(TenantConsole, { tenantId })) ??
      tx.create(TenantConsole, {
        tenantId,
        administratorPower: input.administrator,
        auditorPower: null,
        oidcClientId: null,
        oidcClientSecretSealed: null,
        updatedAt: new Date(),
      });
    row.administratorPower = input.administrator;
    row.auditorPower = input.auditor ?? null;
    row.updatedAt = new Date();
    await tx.flush();
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'console.settings_changed',
      subject: tenantId,
      details: { administrator: row.administratorPower, auditor: row.auditorPower },
    });
    return row;
  });
}

export const consoleSettingsView = (publicUrl: string, row: TenantConsole) => ({
  administrator: row.administratorPower,
  auditor: row.auditorPower ?? null,
  sign_in_url: consoleSignInUrl(publicUrl, row.tenantId),
  oidc_client_id: row.oidcClientId ?? null,
});
