import { Migration } from '@mikro-orm/migrations';

/**
 * The tenant's SCIM counter also counts the statements that inserted or deleted resources
 * (`changes`, only ever growing). A node that learnt where a position of the unfiltered user list
 * starts (directory/scim-user-anchors.ts) may start a later page from there, without an OFFSET scan
 * from the beginning, only while the sum it saw then is still the sum: the same rows in the same
 * order. The trigger is migration 20261123000600's, bumping `changes` as it adds to `n`.
 */
export class Migration20261125000100_scim_list_changes extends Migration {
  override name = 'Migration20261125000100_scim_list_changes';

  override up(): void {
    this.addSql('alter table scim_resource_count add column changes bigint not null default 0');
    this.addSql(`
      create or replace function scim_resource_count_change() returns trigger language plpgsql as $body$
      declare
        sign integer := case when tg_op = 'INSERT' then 1 else -1 end;
        d record;
      begin
        for d in select tenant_id, count(*) as n from changed group by tenant_id order by tenant_id loop
          update scim_resource_count set n = n + sign * d.n, changes = changes + 1
          where id = (select id from scim_resource_count
                      where tenant_id = d.tenant_id and resource_type = tg_argv[0]
                      limit 1 for update skip locked);
          if not found then
            insert into scim_resource_count (tenant_id, resource_type, n, changes)
            values (d.tenant_id, tg_argv[0], sign * d.n, 1);
          end if;
        end loop;
        return null;
      end
      $body$`);
  }
}
