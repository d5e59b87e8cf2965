import { Migration } from '@mikro-orm/migrations';

/**
 * Key attestations (OID4VCI 1.0 appendix D, HAIP): a credential configuration may require the
 * wallet to send one, with the attack potential resistance levels it accepts (null: not required).
 */
export class Migration20261124000300_key_attestation extends Migration {
  override name = 'Migration20261124000300_key_attestation';

  override up(): void {
    this.addSql('alter table credential_configuration add column key_attestations_required jsonb');
  }
}
