import { Migration } from '@mikro-orm/migrations';

/**
 * Registration certificates (ETSI TS 119 475) imported by operators: one per tenant for its
 * verifier (`verifier_info` in request objects), one for the deployment's credential issuer
 * (`issuer_info` in its metadata, tenant_id null). The unique index makes a second import replace
 * the first.
 */
export class Migration20261127000100_registration_certificates extends Migration {
  override name = 'Migration20261127000100_registration_certificates';

  override up(): void {
    this.addSql(`
      create table registration_certificate (
        id uuid primary key,
        role text not null check (role in ('verifier', 'issuer')),
        tenant_id text references tenant (id) on delete cascade,
        jwt text not null,
        sha256 text not null,
        subject text not null,
        issuer text not null,
        issued_at timestamptz,
        expires_at timestamptz,
        imported_at timestamptz not null,
        check ((role = 'verifier') = (tenant_id is not null))
      )`);
    this.addSql(
      `create unique index registration_certificate_owner on registration_certificate (role, (coalesce(tenant_id, '')))`,
    );
  }
}
