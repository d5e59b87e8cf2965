import { Migration } from '@mikro-orm/migrations';

/**
 * Deferred issuance behind an integrator's approval (OID4VCI 1.0 section 9): an issuance created
 * with approval_required waits, once the wallet asked, with the holder keys it proved and the hash
 * of the transaction_id it was given, until the integrator approves or declines it.
 */
export class Migration20261127000600_deferred_issuance extends Migration {
  override name = 'Migration20261127000600_deferred_issuance';

  override up(): void {
    this.addSql('alter table issuance add column approval_required boolean not null default false');
    this.addSql('alter table issuance add column deferred_transaction_hash text');
    this.addSql('alter table issuance add column deferred_holder_keys jsonb');
    this.addSql('alter table issuance add column approval_expires_at timestamptz');
    this.addSql('alter table issuance drop constraint issuance_status_check');
    this.addSql(
      "alter table issuance add constraint issuance_status_check check (status in ('offered', 'redeemed', 'awaiting_approval', 'approved', 'declined', 'issued', 'locked', 'withdrawn'))",
    );
  }
}
