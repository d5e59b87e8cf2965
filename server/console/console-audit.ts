import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { ConsolePerson, ConsoleRole } from './console-session.js';

/**
 * A console event in the tenant's audit log, naming the person (from the presented credential) and
 * their role. Sign-ins, sign-outs and refusals of a known person are recorded here; what they change
 * through the API is recorded by the API under the session's token, which `console.signed_in` ties
 * to the person.
 */
export async function auditConsole(
  em: EntityManager,
  tenantId: string,
  action: string,
  who: { person: ConsolePerson; role?: ConsoleRole | undefined },
  details: Record<string, unknown> = {},
): Promise<void> {
  await em.transactional((tx) =>
    appendAuditEvent(tx, {
      tenantId,
      actor: who.role === 'operator' ? 'console:operator' : 'console',
      action,
      subject: who.person.credentialId ?? who.person.email ?? null,
      details: {
        person: { name: who.person.name, email: who.person.email, credential_id: who.person.credentialId },
        ...(who.role ? { role: who.role } : {}),
        ...details,
      },
    }),
  );
}
