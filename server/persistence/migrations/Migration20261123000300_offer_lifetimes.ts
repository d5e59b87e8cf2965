import { Migration } from '@mikro-orm/migrations';

/**
 * Offer lifetimes per tenant (null: the service defaults), and on each offer the lifetime of the
 * pre-authorized codes it hands out, fixed when the offer is made. Offers made before keep their
 * expiry; their codes get the ten-minute default from now on.
 */
export class Migration20261123000300_offer_lifetimes extends Migration {
  override name = 'Migration20261123000300_offer_lifetimes';

  override up(): void {
    this.addSql(`
      alter table tenant
        add column offer_ttl_seconds integer check (offer_ttl_seconds between 60 and 604800),
        add column pre_authorized_code_ttl_seconds integer
          check (pre_authorized_code_ttl_seconds between 60 and 3600)`);
    this.addSql(`
      alter table issuance
        add column pre_authorized_code_ttl_seconds integer not null default 600
          check (pre_authorized_code_ttl_seconds > 0)`);
  }
}
