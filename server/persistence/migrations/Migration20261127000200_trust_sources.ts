import { Migration } from '@mikro-orm/migrations';

/**
 * Trust sources: published trust lists a tenant trusts by (ETSI TS 119 612 / 119 602). `listed`
 * holds the entities of the copy in force (the last one that validated), so a failed fetch leaves
 * it vouching until its NextUpdate plus the grace; `next_fetch_at` is what the workers poll.
 */
export class Migration20261127000200_trust_sources extends Migration {
  override name = 'Migration20261127000200_trust_sources';

  override up(): void {
    this.addSql(`
      create table trust_source (
        id uuid primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        type text not null,
        url text not null,
        signer_certificates jsonb not null,
        service_types jsonb not null,
        vct_values jsonb,
        doctype_values jsonb,
        refresh_seconds integer,
        created_at timestamptz not null,
        listed jsonb,
        fetched_at timestamptz,
        next_update timestamptz,
        error text,
        next_fetch_at timestamptz not null
      )`);
    this.addSql('create index trust_source_tenant on trust_source (tenant_id, created_at)');
    this.addSql('create index trust_source_due on trust_source (next_fetch_at)');
  }
}
