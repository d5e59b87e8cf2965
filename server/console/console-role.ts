import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConsolePower } from '../../contract/admin/console-settings.js';
import { IssuedCredential } from '../issuance/issued-credential.entity.js';
import type { ConsoleRole } from './console-session.js';
import type { TenantConsole } from './tenant-console.entity.js';

interface PresentedPower {
  function?: unknown;
  action?: unknown;
}

/** Whether the credential's powers include `wanted`: its function, and its action among the actions. */
function grants(powers: unknown, wanted: ConsolePower): boolean {
  if (!Array.isArray(powers)) return false;
  return powers.some((p: PresentedPower) => {
    if (!p || p.function !== wanted.function) return false;
    const actions = Array.isArray(p.action) ? p.action : [p.action];
    return actions.includes(wanted.action);
  });
}

/** The role the tenant's settings give these powers: administrator first, else auditor, else none. */
export function roleOf(
  settings: TenantConsole,
  powers: unknown,
): Exclude<ConsoleRole, 'operator'> | undefined {
  if (grants(powers, settings.administratorPower)) return 'administrator';
  if (settings.auditorPower && grants(powers, settings.auditorPower)) return 'auditor';
  return undefined;
}

/**
 * The credential that signed in, as this service issued it for this tenant and still valid: its
 * issuer-signed status reference names one of our status lists and an index in it. A credential of
 * another tenant (the same issuer signs for all) or of another issuer gives no row, so no access:
 * only the tenant's own credentials carry its powers.
 */
export async function tenantCredentialOf(
  em: EntityManager,
  tenantId: string,
  issuerUrl: string,
  reference: unknown,
): Promise<IssuedCredential | undefined> {
  const ref = reference as { idx?: unknown; uri?: unknown } | undefined;
  if (typeof ref?.uri !== 'string' || typeof ref.idx !== 'number') return undefined;
  const prefix = `${issuerUrl}/status-lists/`;
  if (!ref.uri.startsWith(prefix)) return undefined;
  const listId = ref.uri.slice(prefix.length);
  const row = await em.findOne(IssuedCredential, { tenantId, statusListId: listId, statusIdx: ref.idx });
  return row && row.status === 'valid' ? row : undefined;
}
