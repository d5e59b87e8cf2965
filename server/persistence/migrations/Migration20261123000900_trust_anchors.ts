import { Migration } from '@mikro-orm/migrations';

/**
 * X.509 trust anchors per tenant (HAIP 1.0: issuer keys resolved from the SD-JWT VC's `x5c` chain),
 * beside the trusted issuers with keys. Named by the SHA-256 of the certificate.
 */
export class Migration20261123000900_trust_anchors extends Migration {
  override name = 'Migration20261123000900_trust_anchors';

  override up(): void {
    this.addSql(`
      create table trust_anchor (
        tenant_id text not null references tenant (id) on delete cascade,
        sha256 text not null,
        subject text not null,
        key_identifier text not null,
        certificate text not null,
        not_before timestamptz not null,
        not_after timestamptz not null,
        created_at timestamptz not null,
        primary key (tenant_id, sha256)
      )`);
  }
}
