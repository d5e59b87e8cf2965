import { Migration } from '@mikro-orm/migrations';

/** A tenant's own transaction data types for approvals, each with the JSON Schema of its members. */
export class Migration20261127000400_transaction_data_types extends Migration {
  override name = 'Migration20261127000400_transaction_data_types';

  override up(): void {
    this.addSql(`
      create table transaction_data_type (
        tenant_id text not null references tenant (id) on delete cascade,
        type text not null,
        schema jsonb not null,
        max_bytes integer not null,
        created_at timestamptz not null,
        primary key (tenant_id, type)
      )`);
  }
}
