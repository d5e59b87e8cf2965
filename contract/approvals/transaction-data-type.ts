import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TenantId } from '../admin/tenant.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();

/**
 * A transaction data type of a tenant's own (OpenID4VP 1.0 §5.1 `transaction_data`), besides the
 * built-in `urn:credservice:approval:1`: the JSON Schema an approval's transaction of this type must
 * meet (`type` aside), and how large it may be once encoded.
 */
export const TransactionDataTypeInput = z
  .object({
    type: z
      .string()
      .min(3)
      .max(200)
      .regex(
        /^[a-z][a-z0-9+.-]*:\S+$/i,
        'a URI, e.g. urn:acme:payment:1 (collision-resistant, OpenID4VP 1.0)',
      ),
    schema: z
      .record(z.unknown())
      .describe('JSON Schema (draft 2020-12 or 7) of the transaction’s members; it must describe an object'),
    max_bytes: z.number().int().min(256).max(16_384).optional().describe('Default 4096, base64url-encoded'),
  })
  .strict();

export const TransactionDataTypeView = TransactionDataTypeInput.extend({
  max_bytes: z.number().int(),
  created_at: z.string().datetime(),
});

export const TransactionDataTypeList = z.object({ items: z.array(TransactionDataTypeView) });

/** Operators define the transaction data types a tenant's approvals may use. */
export const transactionDataTypeContract = c.router(
  {
    putTransactionDataType: {
      method: 'POST',
      path: '/tenants/:id/transaction-data-types',
      pathParams: z.object({ id: TenantId }),
      body: TransactionDataTypeInput,
      responses: {
        200: TransactionDataTypeView,
        201: TransactionDataTypeView,
        400: ProblemDetails,
        401: ProblemDetails,
        404: ProblemDetails,
      },
      summary: 'Define a transaction data type for the tenant’s approvals (201), or replace its schema (200)',
    },
    listTransactionDataTypes: {
      method: 'GET',
      path: '/tenants/:id/transaction-data-types',
      pathParams: z.object({ id: TenantId }),
      responses: { 200: TransactionDataTypeList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'The tenant’s own transaction data types',
    },
    removeTransactionDataType: {
      method: 'POST',
      path: '/tenants/:id/transaction-data-types/remove',
      pathParams: z.object({ id: TenantId }),
      body: z.object({ type: z.string().min(1).max(200) }).strict(),
      responses: { 200: TransactionDataTypeList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Remove a type: approvals of it are refused from then on',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);
