import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, Problem, validationError } from '../http/problem.js';
import { CredentialConfiguration } from './credential-configuration.entity.js';
import { LEAR_CREDENTIAL_EMPLOYEE } from './lear-credential-employee.js';
import type { PayloadValidator } from './payload-validator.js';

const BUILTINS = [LEAR_CREDENTIAL_EMPLOYEE];

/** Writes the built-in configurations as this version defines them; run at start, idempotent. */
export async function ensureBuiltinConfigurations(em: EntityManager): Promise<void> {
  for (const builtin of BUILTINS) {
    await em.upsert(
      CredentialConfiguration,
      { ...builtin, createdAt: new Date() },
      { onConflictExcludeFields: ['createdAt'] },
    );
  }
}

export async function listConfigurations(em: EntityManager): Promise<CredentialConfiguration[]> {
  return em.find(CredentialConfiguration, {}, { orderBy: { id: 'asc' } });
}

export async function findConfiguration(
  em: EntityManager,
  id: string,
): Promise<CredentialConfiguration | null> {
  return em.findOne(CredentialConfiguration, { id });
}

export async function getConfiguration(em: EntityManager, id: string): Promise<CredentialConfiguration> {
  const c = await findConfiguration(em, id);
  if (!c) throw notFound(`credential configuration ${id}`);
  return c;
}

export type ConfigurationInput = Omit<CredentialConfiguration, 'createdAt' | 'builtin' | 'format'>;

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
  const existing = await findConfiguration(em, input.id);
  if (existing?.builtin)
    throw new Problem(409, 'builtin-configuration', 'Conflict', `${input.id} is built in`);
  await em.upsert(
    CredentialConfiguration,
    { ...input, format: 'dc+sd-jwt', builtin: false, createdAt: new Date() },
    { onConflictExcludeFields: ['createdAt'] },
  );
  return getConfiguration(em.fork(), input.id);
}
