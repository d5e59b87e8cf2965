import { Migration } from '@mikro-orm/migrations';

/**
 * OID4VCI 1.0 section 10: a tenant may require its credential requests and responses to be
 * encrypted (false: the wallet chooses, unless CREDENTIAL_ENCRYPTION_REQUIRED says otherwise).
 */
export class Migration20261127000500_credential_encryption extends Migration {
  override name = 'Migration20261127000500_credential_encryption';

  override up(): void {
    this.addSql('alter table tenant add column encryption_required boolean not null default false');
  }
}
