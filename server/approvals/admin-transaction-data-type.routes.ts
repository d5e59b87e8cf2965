import type { EntityManager } from '@mikro-orm/postgresql';
import { initServer } from '@ts-rest/express';
import { transactionDataTypeContract } from '../../contract/approvals/transaction-data-type.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { TransactionDataType } from './transaction-data-type.entity.js';
import { checkTypeSchema, typeMaxBytes } from './transaction-data-types.js';

const s = initServer();

const view = (t: TransactionDataType) => ({
  type: t.type,
  schema: t.schema,
  max_bytes: t.maxBytes,
  created_at: t.createdAt.toISOString(),
});

const listOf = async (em: EntityManager, tenantId: string) => ({
  items: (
    await em.find(TransactionDataType, { tenantId }, { orderBy: { type: 'asc' }, disableIdentityMap: true })
  ).map(view),
});

/** Operators define a tenant's transaction data types for approvals; each change is audited. */
export const adminTransactionDataTypeRoutes = s.router(transactionDataTypeContract, {
  putTransactionDataType: async ({ params, body, req }) => {
    await getTenant(req.em, params.id);
    checkTypeSchema(body.type, body.schema);
    const row = {
      tenantId: params.id,
      type: body.type,
      schema: body.schema,
      maxBytes: typeMaxBytes(body.max_bytes),
      createdAt: new Date(),
    };
    const created = await req.em.transactional(async (tx) => {
      const [existing] = await tx.execute<{ n: number }[]>(
        'select 1 as n from transaction_data_type where tenant_id = ? and type = ?',
        [row.tenantId, row.type],
      );
      await tx.upsert(TransactionDataType, row);
      await appendAuditEvent(tx, {
        tenantId: params.id,
        actor: adminActor(req),
        action: 'approval.transaction_data_type_defined',
        subject: row.type,
        details: { max_bytes: row.maxBytes },
      });
      return !existing;
    });
    return { status: created ? 201 : 200, body: view(row) };
  },
  listTransactionDataTypes: async ({ params, req }) => {
    await getTenant(req.em, params.id);
    return { status: 200, body: await listOf(req.em, params.id) };
  },
  removeTransactionDataType: async ({ params, body, req }) => {
    await getTenant(req.em, params.id);
    await req.em.transactional(async (tx) => {
      const removed = await tx.nativeDelete(TransactionDataType, { tenantId: params.id, type: body.type });
      if (!removed) throw notFound(`transaction data type ${body.type}`);
      await appendAuditEvent(tx, {
        tenantId: params.id,
        actor: adminActor(req),
        action: 'approval.transaction_data_type_removed',
        subject: body.type,
      });
    });
    return { status: 200, body: await listOf(req.em, params.id) };
  },
});
