import { Migration } from '@mikro-orm/migrations';

/**
 * Credentials provisioned beside a SCIM user's main one (e.g. the employee mdoc beside the SD-JWT
 * VC): the tenant names them in its provisioning settings, and each such issuance points at the
 * main issuance it goes with, so that renewing or revoking the main one takes its companions along.
 */
export class Migration20261128000100_companion_credentials extends Migration {
  override name = 'Migration20261128000100_companion_credentials';

  override up(): void {
    this.addSql(
      "alter table tenant_provisioning add column additional_configuration_ids jsonb not null default '[]'",
    );
    this.addSql(
      'alter table issuance add column companion_of text references issuance (id) on delete cascade',
    );
    this.addSql(
      'create index issuance_companion_of_idx on issuance (companion_of) where companion_of is not null',
    );
  }
}
