import { Migration } from '@mikro-orm/migrations';

/**
 * Two hot paths that no longer lock a shared row through their commit.
 *
 * Status changes append a `status_list_change` row instead of rewriting the list's byte array under
 * its row lock; the status-list publisher folds them into `status_list.statuses` when it builds the
 * token. The byte array is stored uncompressed out of line, so reading one entry's byte fetches one
 * TOAST chunk rather than the whole list.
 *
 * SCIM users and groups per tenant are counted by triggers into `scim_resource_count`: a tenant's
 * count is the sum of a few slot rows, and a writer adds to any slot no other transaction holds
 * (`skip locked`), so concurrent writers of one tenant never wait for each other's commit.
 */
export class Migration20261123000600_status_and_counts extends Migration {
  override name = 'Migration20261123000600_status_and_counts';

  override up(): void {
    this.addSql(`
      create table status_list_change (
        seq bigint generated always as identity primary key,
        list_id uuid not null,
        idx integer not null check (idx >= 0),
        status smallint not null check (status between 0 and 255),
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index status_list_change_entry_idx on status_list_change (list_id, idx)');
    this.addSql('alter table status_list alter column statuses set storage external');
    // Rewrite the stored arrays so that existing lists are stored the new way too.
    this.addSql("update status_list set statuses = statuses || '\\x'::bytea");

    this.addSql(`
      create table scim_resource_count (
        id bigint generated always as identity primary key,
        tenant_id text not null,
        resource_type text not null check (resource_type in ('User', 'Group')),
        n bigint not null
      )`);
    this.addSql(
      'create index scim_resource_count_tenant_idx on scim_resource_count (tenant_id, resource_type)',
    );
    this.addSql(`
      insert into scim_resource_count (tenant_id, resource_type, n)
      select tenant_id, 'User', count(*) from scim_user group by tenant_id
      union all
      select tenant_id, 'Group', count(*) from scim_group group by tenant_id`);
    // Statement-level, so a bulk insert or a tenant's cascaded delete adds once per tenant, not per row.
    this.addSql(`
      create function scim_resource_count_change() returns trigger language plpgsql as $body$
      declare
        sign integer := case when tg_op = 'INSERT' then 1 else -1 end;
        d record;
      begin
        for d in select tenant_id, count(*) as n from changed group by tenant_id order by tenant_id loop
          update scim_resource_count set n = n + sign * d.n
          where id = (select id from scim_resource_count
                      where tenant_id = d.tenant_id and resource_type = tg_argv[0]
                      limit 1 for update skip locked);
          if not found then
            insert into scim_resource_count (tenant_id, resource_type, n)
            values (d.tenant_id, tg_argv[0], sign * d.n);
          end if;
        end loop;
        return null;
      end
      $body$`);
    for (const [table, type] of [
      ['scim_user', 'User'],
      ['scim_group', 'Group'],
    ]) {
      this.addSql(`
        create trigger ${table}_counted_insert after insert on ${table}
        referencing new table as changed for each statement execute function scim_resource_count_change('${type}')`);
      this.addSql(`
        create trigger ${table}_counted_delete after delete on ${table}
        referencing old table as changed for each statement execute function scim_resource_count_change('${type}')`);
    }
  }
}
