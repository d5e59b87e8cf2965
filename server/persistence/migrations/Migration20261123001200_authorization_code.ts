import { Migration } from '@mikro-orm/migrations';

/**
 * The authorization code flow (OID4VCI 1.0 section 3.4): an offer says which grant the wallet is to
 * use. Existing offers keep the pre-authorized code grant they were made with.
 */
export class Migration20261123001200_authorization_code extends Migration {
  override name = 'Migration20261123001200_authorization_code';

  override up(): void {
    this.addSql(
      `alter table issuance add column grant_type text not null default 'urn:ietf:params:oauth:grant-type:pre-authorized_code'`,
    );
  }
}
