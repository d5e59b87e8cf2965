import { Migration } from '@mikro-orm/migrations';

/**
 * ISO/IEC 18013-7 Annex C over the Digital Credentials API (`org-iso-mdoc`): a dc_api session asking
 * for one mdoc also offers an Annex C request, whose wallet HPKE-encrypts its DeviceResponse to a key
 * of the session's own over a transcript of the EncryptionInfo sent. Both are kept until the answer
 * comes: the EncryptionInfo text as sent, and the private key sealed like the response encryption key.
 */
export class Migration20261126000900_annex_c extends Migration {
  override name = 'Migration20261126000900_annex_c';

  override up(): void {
    this.addSql(
      'alter table presentation_session add column annex_c_encryption_info text, add column annex_c_key_sealed text',
    );
  }
}
