import { Migration } from '@mikro-orm/migrations';

/**
 * The tenant administrators' console (issue #25): read-only API tokens, so that an auditor's session
 * holds a token that cannot change anything; and each tenant's console settings: which power of the
 * employee credential makes an administrator or an auditor, and the console's own relying party at
 * the service's OpenID provider (its secret sealed with KEY_ENCRYPTION_KEY).
 */
export class Migration20261128004100_console extends Migration {
  override name = 'Migration20261128004100_console';

  override up(): void {
    this.addSql("alter table api_token add column scope text not null default 'full'");
    this.addSql(
      "alter table api_token add constraint api_token_scope_check check (scope in ('full', 'read'))",
    );
    this.addSql(`create table tenant_console (
      tenant_id text primary key references tenant (id) on delete cascade,
      administrator_power jsonb not null,
      auditor_power jsonb,
      oidc_client_id text references oidc_client (id) on delete set null,
      oidc_client_secret_sealed text,
      updated_at timestamptz not null default now()
    )`);
  }
}
