import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a trusted issuer's keys could last be resolved from its jwt-vc-issuer metadata
 * (`keys_error`, null when they could, and when they were checked), so the tenant's admin view can
 * warn without fetching anything; and a failed presentation's description beside its reason, so
 * the integrator learns why (e.g. which fetch failed), not only `untrusted_issuer`.
 */
export class Migration20261126000500_trusted_issuer_keys extends Migration {
  override name = 'Migration20261126000500_trusted_issuer_keys';

  override up(): void {
    this.addSql(
      'alter table trusted_issuer add column keys_error text, add column keys_checked_at timestamptz',
    );
    this.addSql('alter table presentation_session add column failure_description text');
  }
}
