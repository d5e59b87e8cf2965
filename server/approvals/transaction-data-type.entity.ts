import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** A tenant's own transaction data type: the JSON Schema its approvals' transactions must meet. */
export const TransactionDataType = defineEntity({
  name: 'TransactionDataType',
  tableName: 'transaction_data_type',
  properties: {
    tenantId: p.string().primary(),
    type: p.string().primary(),
    schema: p.json<Record<string, unknown>>(),
    maxBytes: p.integer(),
    createdAt: p.datetime(),
  },
});

export type TransactionDataType = InferEntity<typeof TransactionDataType>;
