import { Migration } from '@mikro-orm/migrations';

/**
 * The last event of each tenant's audit chain, kept beside it: a log cut short (its newest events
 * deleted) no longer verifies as a shorter but valid chain.
 */
export class Migration20261122000600_audit_head extends Migration {
  override name = 'Migration20261122000600_audit_head';

  override up(): void {
    this.addSql(`
      create table audit_head (
        tenant_id text primary key references tenant (id) on delete cascade,
        seq integer not null,
        hash text not null
      )`);
    this.addSql(`
      insert into audit_head (tenant_id, seq, hash)
      select distinct on (tenant_id) tenant_id, seq, hash from audit_event order by tenant_id, seq desc`);
  }
}
