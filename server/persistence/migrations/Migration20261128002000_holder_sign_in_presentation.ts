import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's holders may sign in at issuance by presenting a credential (the EU PID, say) whose
 * claims match their record, instead of a mailed one-time code: the credential query and the rule.
 */
export class Migration20261128002000_holder_sign_in_presentation extends Migration {
  override name = 'Migration20261128002000_holder_sign_in_presentation';

  override up(): void {
    this.addSql(`
      create table holder_sign_in_presentation (
        tenant_id text primary key references tenant (id) on delete cascade,
        credential_query jsonb not null,
        match jsonb not null,
        updated_at timestamptz not null
      )`);
  }
}
