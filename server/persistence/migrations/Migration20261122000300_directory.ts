import { Migration } from '@mikro-orm/migrations';

/** SCIM users and groups per tenant, the tenant's provisioning settings, and audit export cursors. */
export class Migration20261122000300_directory extends Migration {
  override name = 'Migration20261122000300_directory';

  override up(): void {
    this.addSql(`
      create table scim_user (
        id uuid primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        user_name text not null,
        external_id text,
        active boolean not null,
        display_name text,
        given_name text,
        family_name text,
        resource jsonb not null,
        issuance_id text references issuance (id) on delete set null,
        credential_payload_hash text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        version integer not null
      )`);
    // userName is unique per tenant ignoring case (RFC 7643: caseExact false).
    this.addSql('create unique index scim_user_name_idx on scim_user (tenant_id, lower(user_name))');
    this.addSql('create index scim_user_external_id_idx on scim_user (tenant_id, external_id)');
    this.addSql('create index scim_user_created_idx on scim_user (tenant_id, created_at, id)');
    // Filters compare these ignoring case (RFC 7643 caseExact false).
    this.addSql('create index scim_user_family_name_idx on scim_user (tenant_id, lower(family_name))');
    this.addSql('create index scim_user_display_name_idx on scim_user (tenant_id, lower(display_name))');

    this.addSql(`
      create table scim_group (
        id uuid primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        display_name text not null,
        external_id text,
        resource jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        version integer not null
      )`);
    this.addSql('create index scim_group_name_idx on scim_group (tenant_id, lower(display_name))');
    this.addSql(`
      create table scim_group_member (
        group_id uuid not null references scim_group (id) on delete cascade,
        user_id uuid not null references scim_user (id) on delete cascade,
        display text,
        primary key (group_id, user_id)
      )`);
    this.addSql('create index scim_group_member_user_idx on scim_group_member (user_id)');

    this.addSql(`
      create table tenant_provisioning (
        tenant_id text primary key references tenant (id) on delete cascade,
        configuration_id text references credential_configuration (id),
        mappings jsonb not null,
        default_powers jsonb not null,
        group_powers jsonb not null,
        renew_on_every_put boolean not null default false
      )`);

    // An offer withdrawn before a wallet redeemed it (the user changed or left).
    this.addSql('alter table issuance drop constraint issuance_status_check');
    this.addSql(
      "alter table issuance add constraint issuance_status_check check (status in ('offered', 'redeemed', 'issued', 'locked', 'withdrawn'))",
    );

    this.addSql(`
      create table audit_export_cursor (
        tenant_id text primary key references tenant (id) on delete cascade,
        last_seq integer not null,
        exported_at timestamptz not null
      )`);
  }
}
