import { Migration } from '@mikro-orm/migrations';

/**
 * What a SCIM user's credential extension shows beyond the credential's status: why the user holds
 * no current credential, and, for a tenant with direct delivery, the signed credential last issued
 * to them, so one renewed by a group change (whose SCIM answer is the group's) can still be fetched.
 */
export class Migration20261123000210_scim_user_credential extends Migration {
  override name = 'Migration20261123000210_scim_user_credential';

  override up(): void {
    this.addSql('alter table scim_user add column credential_reason text');
    this.addSql('alter table scim_user add column direct_credential text');
  }
}
