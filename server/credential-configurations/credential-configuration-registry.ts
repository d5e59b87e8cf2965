import type { EntityManager } from '@mikro-orm/postgresql';
import { frozenRow } from '../cache/frozen-row.js';
import { cached, invalidate } from '../cache/node-caches.js';
import { conflict, notFound, validationError } from '../domain-errors.js';
import { CredentialConfiguration } from './credential-configuration.entity.js';
import { EMPLOYEE_MDOC } from './employee-mdoc.js';
import { LEAR_CREDENTIAL_EMPLOYEE } from './lear-credential-employee.js';
import type { PayloadValidator } from './payload-validator.js';

const BUILTINS = [LEAR_CREDENTIAL_EMPLOYEE, EMPLOYEE_MDOC];
/**
 * Configurations are read by every issuance and change only through the admin API or a new version
 * starting: they come from the node's cache, and any change drops every node's copies of them all.
 */
const CONFIGURATIONS = 'credential-configuration';
const ALL = '*all';

/** Writes the built-in configurations as this version defines them; run at start, idempotent. */
export async function ensureBuiltinConfigurations(em: EntityManager): Promise<void> {
  await em.transactional(async (tx) => {
    for (const builtin of BUILTINS) {
      await tx.upsert(
        CredentialConfiguration,
        { ...builtin, createdAt: new Date() },
        { onConflictExcludeFields: ['createdAt'] },
      );
    }
    await invalidate(tx, CONFIGURATIONS);
  });
}

/** Every configuration, shared and frozen. */
export async function listConfigurations(em: EntityManager): Promise<CredentialConfiguration[]> {
  return cached(
    em,
    CONFIGURATIONS,
    ALL,
    async () =>
      Object.freeze(
        (
          await em.find(CredentialConfiguration, {}, { orderBy: { id: 'asc' }, disableIdentityMap: true })
        ).map(frozenRow),
      ) as CredentialConfiguration[],
  );
}

/** The configuration, shared and frozen (not a managed entity); null when there is none. */
export async function findConfiguration(
  em: EntityManager,
  id: string,
): Promise<CredentialConfiguration | null> {
  const found = await cached(em, CONFIGURATIONS, id, async () => {
    const row = await em.findOne(CredentialConfiguration, { id }, { disableIdentityMap: true });
    return row ? frozenRow(row) : undefined;
  });
  return found ?? null;
}

export async function getConfiguration(em: EntityManager, id: string): Promise<CredentialConfiguration> {
  const c = await findConfiguration(em, id);
  if (!c) throw notFound(`credential configuration ${id}`);
  return c;
}

export type ConfigurationInput = Omit<CredentialConfiguration, 'createdAt' | 'builtin'>;

/** Registers or replaces an operator's configuration; built-in ones cannot be replaced. */
export async function registerConfiguration(
  em: EntityManager,
  input: ConfigurationInput,
  validator: PayloadValidator,
) {
  try {
    validator.assertSchema(input.payloadSchema);
  } catch (e) {
    throw validationError([
      { field: 'payload_schema', message: `not a valid JSON Schema: ${(e as Error).message}` },
    ]);
  }
  await em.transactional(async (tx) => {
    const existing = await tx.findOne(
      CredentialConfiguration,
      { id: input.id },
      { disableIdentityMap: true },
    );
    if (existing?.builtin) throw conflict(`${input.id} is built in`, 'builtin-configuration');
    await tx.upsert(
      CredentialConfiguration,
      { ...input, builtin: false, createdAt: new Date() },
      { onConflictExcludeFields: ['createdAt'] },
    );
    await invalidate(tx, CONFIGURATIONS);
  });
  return getConfiguration(em.fork(), input.id);
}
