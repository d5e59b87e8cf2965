import { Migration } from '@mikro-orm/migrations';

/**
 * A group's displayName is unique within its tenant, ignoring case (Entra matches groups by it, and
 * group powers are keyed by it). Groups that already share a name keep their members and ids: the
 * oldest keeps the name, each later one is renamed `<name> (duplicate <id>)`, so it grants no
 * powers meant for the original and its directory's next write of the old name gets 409 uniqueness,
 * which shows the clash to whoever runs the directory instead of hiding it.
 */
export class Migration20261123000200_scim_group_unique extends Migration {
  override name = 'Migration20261123000200_scim_group_unique';

  override up(): void {
    this.addSql(`
      update scim_group g
      set display_name = renamed.name, resource = jsonb_set(g.resource, '{displayName}', to_jsonb(renamed.name))
      from (
        select id, display_name || ' (duplicate ' || id || ')' as name,
               row_number() over (partition by tenant_id, lower(display_name) order by created_at, id) as n
        from scim_group
      ) renamed
      where renamed.id = g.id and renamed.n > 1`);
    this.addSql('drop index scim_group_name_idx');
    this.addSql('create unique index scim_group_name_idx on scim_group (tenant_id, lower(display_name))');
  }
}
