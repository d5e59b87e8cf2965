import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's SCIM provisioning may hold the issuances it creates for approval (deferred issuance,
 * OID4VCI 1.0 section 9), and names the power an approver must hold to approve one by presentation
 * (null: the built-in Onboarding / Approve).
 */
export class Migration20261128003000_provisioning_approval extends Migration {
  override name = 'Migration20261128003000_provisioning_approval';

  override up(): void {
    this.addSql(
      'alter table tenant_provisioning add column approval_required boolean not null default false',
    );
    this.addSql('alter table tenant_provisioning add column approval_power jsonb');
  }
}
