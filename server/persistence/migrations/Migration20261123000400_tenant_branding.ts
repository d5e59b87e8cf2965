import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's look on its offer and login pages (logo, colour) and the sender of its mail. Both are
 * optional: null keeps the service's plain pages and MAIL_FROM.
 */
export class Migration20261123000400_tenant_branding extends Migration {
  override name = 'Migration20261123000400_tenant_branding';

  override up(): void {
    this.addSql('alter table tenant add column branding jsonb null, add column mail_from text null');
  }
}
