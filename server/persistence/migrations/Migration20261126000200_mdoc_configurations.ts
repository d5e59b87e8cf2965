import { Migration } from '@mikro-orm/migrations';

/**
 * ISO mdoc configurations are named by a document type (ISO 18013-5) instead of an SD-JWT VC `vct`;
 * each status list is also kept in its CWT form (mdocs reference it in CBOR), built with the JWT form.
 */
export class Migration20261126000200_mdoc_configurations extends Migration {
  override name = 'Migration20261126000200_mdoc_configurations';

  override up(): void {
    this.addSql('alter table credential_configuration add column doctype text');
    this.addSql('alter table status_list_token add column cwt bytea');
  }
}
