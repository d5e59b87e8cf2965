import { Migration } from '@mikro-orm/migrations';

/**
 * HAIP 1.0 issuance, refresh tokens and `haip-vci://` offers.
 *
 * A tenant may let wallets refresh their credentials (RFC 6749 section 6, OID4VCI 1.0 section 13.5)
 * for a number of seconds after the token grant (null: no refresh tokens). Each grant that gets a
 * refresh token opens a family: the issuance it refreshes, a copy of the credential payload (the
 * issuance erases its own once it is issued), the DPoP key and wallet it is bound to, and the SCIM
 * user it was for. Every refresh token of a family is kept as a hash; a used one stays (used_at) so
 * that its reuse is seen and ends the family (RFC 9700 section 4.14.2). Access tokens of a refresh
 * point to their family and go with it, and are spent by one credential response.
 *
 * A tenant, and each offer, may use the `haip-vci` scheme for offer links (null: openid-credential-offer).
 */
export class Migration20261124000200_refresh_tokens extends Migration {
  override name = 'Migration20261124000200_refresh_tokens';

  override up(): void {
    this.addSql(
      'alter table tenant add column refresh_token_ttl_seconds integer check (refresh_token_ttl_seconds > 0)',
    );
    this.addSql(
      "alter table tenant add column offer_uri_scheme text check (offer_uri_scheme in ('openid-credential-offer', 'haip-vci'))",
    );
    this.addSql(
      "alter table issuance add column offer_uri_scheme text check (offer_uri_scheme in ('openid-credential-offer', 'haip-vci'))",
    );
    this.addSql(`
      create table oid4vci_refresh_family (
        id text primary key,
        issuance_id text not null references issuance (id) on delete cascade,
        tenant_id text not null,
        payload jsonb not null,
        dpop_jkt text,
        client_id text,
        scim_user_id uuid,
        created_at timestamptz not null,
        expires_at timestamptz not null
      )`);
    this.addSql('create index oid4vci_refresh_family_issuance_idx on oid4vci_refresh_family (issuance_id)');
    this.addSql('create index oid4vci_refresh_family_expiry_idx on oid4vci_refresh_family (expires_at)');
    this.addSql(`
      create table oid4vci_refresh_token (
        token_hash text primary key,
        family_id text not null references oid4vci_refresh_family (id) on delete cascade,
        created_at timestamptz not null,
        used_at timestamptz
      )`);
    this.addSql('create index oid4vci_refresh_token_family_idx on oid4vci_refresh_token (family_id)');
    this.addSql(
      'alter table oid4vci_access_token add column refresh_family_id text references oid4vci_refresh_family (id) on delete cascade',
    );
    this.addSql('alter table oid4vci_access_token add column spent_at timestamptz');
    this.addSql(
      'create index oid4vci_access_token_family_idx on oid4vci_access_token (refresh_family_id) where refresh_family_id is not null',
    );
  }
}
