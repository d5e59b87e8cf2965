import { Migration } from '@mikro-orm/migrations';

/** Credential configurations, issuances (offers), issued credentials, OID4VCI access tokens and nonces. */
export class Migration20261122000200_issuance extends Migration {
  override name = 'Migration20261122000200_issuance';

  override up(): void {
    this.addSql(`
      create table credential_configuration (
        id text primary key,
        format text not null,
        vct text,
        payload_schema jsonb not null,
        selectively_disclosable jsonb not null,
        validity_seconds integer not null check (validity_seconds > 0),
        display jsonb not null,
        claims jsonb not null,
        builtin boolean not null,
        created_at timestamptz not null
      )`);
    // Null: the tenant may issue every configuration.
    this.addSql('alter table tenant add column credential_configurations jsonb');

    this.addSql(`
      create table issuance (
        id text primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        configuration_id text not null references credential_configuration (id),
        payload jsonb,
        email text,
        delivery jsonb not null,
        status text not null check (status in ('offered', 'redeemed', 'issued', 'locked')),
        tx_code_hash text,
        tx_code_failures integer not null default 0,
        holder_key jsonb,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        redeemed_at timestamptz,
        issued_at timestamptz
      )`);
    this.addSql('create index issuance_tenant_idx on issuance (tenant_id, created_at)');

    this.addSql(`
      create table issued_credential (
        id uuid primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        issuance_id text references issuance (id) on delete set null,
        configuration_id text not null,
        status_list_id text not null,
        status_idx integer not null,
        status text not null check (status in ('valid', 'revoked', 'suspended')),
        issued_at timestamptz not null,
        expires_at timestamptz not null,
        notification_id text,
        wallet_notification text,
        unique (status_list_id, status_idx)
      )`);
    this.addSql('create index issued_credential_issuance_idx on issued_credential (issuance_id)');
    this.addSql('create index issued_credential_notification_idx on issued_credential (notification_id)');

    this.addSql(`
      create table oid4vci_access_token (
        token_hash text primary key,
        issuance_id text not null references issuance (id) on delete cascade,
        expires_at timestamptz not null
      )`);
    this.addSql(`
      create table oid4vci_nonce (
        nonce_hash text primary key,
        expires_at timestamptz not null
      )`);
    this.addSql('create index oid4vci_nonce_expiry_idx on oid4vci_nonce (expires_at)');
  }
}
