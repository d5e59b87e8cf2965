import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's own OpenID provider for its holders' sign-in at issuance (HAIP 1.0 authorization code
 * flow). The client secret is kept sealed with KEY_ENCRYPTION_KEY, bound to the tenant.
 */
export class Migration20261124000100_holder_sign_in extends Migration {
  override name = 'Migration20261124000100_holder_sign_in';

  override up(): void {
    this.addSql(`
      create table holder_sign_in_provider (
        tenant_id text primary key references tenant (id) on delete cascade,
        issuer text not null,
        client_id text not null,
        client_secret_sealed text not null,
        email_claim text not null,
        updated_at timestamptz not null
      )`);
  }
}
