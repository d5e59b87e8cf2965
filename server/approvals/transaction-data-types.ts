import type { EntityManager } from '@mikro-orm/postgresql';
import { APPROVAL_TRANSACTION_TYPE } from '../../contract/approvals/approval.js';
import { PayloadValidator } from '../credential-configurations/payload-validator.js';
import { validationError } from '../domain-errors.js';
import { BUILT_IN_APPROVAL, type TransactionDataDefinition } from './approval-transaction-data.js';
import { TransactionDataType } from './transaction-data-type.entity.js';

const validator = new PayloadValidator();
const DEFAULT_MAX_BYTES = 4096;

/**
 * A type's schema as an operator registers it: valid JSON Schema, describing an object (a
 * transaction is one), and not the built-in type's name. Refused with the field otherwise.
 */
export function checkTypeSchema(type: string, schema: Record<string, unknown>) {
  if (type === APPROVAL_TRANSACTION_TYPE)
    throw validationError([{ field: 'type', message: 'the built-in type cannot be redefined' }]);
  if (schema.type !== 'object')
    throw validationError([{ field: 'schema', message: 'must describe an object ("type": "object")' }]);
  try {
    validator.assertSchema(schema);
  } catch (e) {
    throw validationError([{ field: 'schema', message: `not valid JSON Schema: ${(e as Error).message}` }]);
  }
}

export const typeMaxBytes = (maxBytes: number | undefined) => maxBytes ?? DEFAULT_MAX_BYTES;

/**
 * What an approval of `type` may carry for `tenantId`: the built-in type, or one the tenant's
 * operator defined (its JSON Schema checks the transaction's members, `type` aside). An unknown type
 * is a 400 naming the field.
 */
export async function transactionDataDefinition(
  em: EntityManager,
  tenantId: string,
  type: string,
): Promise<TransactionDataDefinition> {
  if (type === APPROVAL_TRANSACTION_TYPE) return BUILT_IN_APPROVAL;
  const defined = await em.findOne(TransactionDataType, { tenantId, type }, { disableIdentityMap: true });
  if (!defined)
    throw validationError([
      {
        field: 'transaction.type',
        message: `unknown transaction data type; this tenant knows ${APPROVAL_TRANSACTION_TYPE}`,
      },
    ]);
  return {
    check: (transaction) => {
      const { type: _type, ...members } = transaction;
      return validator
        .validate(`transaction-data:${tenantId}:${type}`, defined.schema, members)
        .map((e) => ({ ...e, field: e.field.replace(/^payload/, 'transaction') }));
    },
    maxBytes: defined.maxBytes,
  };
}
