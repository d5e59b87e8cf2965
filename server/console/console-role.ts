import type { EntityManager } from '@mikro-orm/postgresql';
import { holdsPower } from '../approvals/check-mandate.js';
import { IssuedCredential } from '../issuance/issued-credential.entity.js';
import type { ConsoleRole } from './console-session.js';
import type { TenantConsole } from './tenant-console.entity.js';

/** The role the tenant's settings give these powers: administrator first, else auditor, else none. */
export function roleOf(
  settings: TenantConsole,
  powers: unknown,
): Exclude<ConsoleRole, 'operator'> | undefined {
  if (holdsPower(powers, settings.administratorPower)) return 'administrator';
  if (settings.auditorPower && holdsPower(powers, settings.auditorPower)) return 'auditor';
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
