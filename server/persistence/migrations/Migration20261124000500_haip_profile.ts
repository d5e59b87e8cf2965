import { Migration } from '@mikro-orm/migrations';

/**
 * The HAIP 1.0 verifier profile per tenant (`haip-1.0`; null: none). A presentation session keeps
 * the profile it was created under, so switching the tenant's profile never changes the rules for a
 * request a wallet is already answering.
 */
export class Migration20261124000500_haip_profile extends Migration {
  override name = 'Migration20261124000500_haip_profile';

  override up(): void {
    this.addSql(
      "alter table tenant add column presentation_profile text check (presentation_profile in ('haip-1.0'))",
    );
    this.addSql("alter table presentation_session add column profile text check (profile in ('haip-1.0'))");
  }
}
