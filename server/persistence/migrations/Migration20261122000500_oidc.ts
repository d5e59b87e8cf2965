import { Migration } from '@mikro-orm/migrations';

/** Relying parties of tenants, their logins (codes and access tokens), and used client assertions. */
export class Migration20261122000500_oidc extends Migration {
  override name = 'Migration20261122000500_oidc';

  override up(): void {
    this.addSql(`
      create table oidc_client (
        id text primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        name text,
        redirect_uris jsonb not null,
        token_endpoint_auth_method text not null
          check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'private_key_jwt')),
        secret_hash text,
        jwks jsonb,
        credential_configuration_id text not null,
        claims_mapping jsonb not null,
        created_at timestamptz not null,
        -- A client authenticates with exactly one kind of credential.
        check ((token_endpoint_auth_method = 'private_key_jwt') = (jwks is not null)),
        check ((token_endpoint_auth_method = 'private_key_jwt') = (secret_hash is null))
      )`);
    this.addSql('create index oidc_client_tenant_idx on oidc_client (tenant_id, created_at)');
    this.addSql(`
      create table oidc_authorization (
        session_id text primary key references presentation_session (id) on delete cascade,
        client_id text not null references oidc_client (id) on delete cascade,
        redirect_uri text not null,
        state text,
        nonce text not null,
        code_challenge text not null,
        browser_binding_hash text not null,
        created_at timestamptz not null,
        completed_at timestamptz,
        auth_time timestamptz,
        code_hash text unique,
        code_expires_at timestamptz,
        code_redeemed_at timestamptz,
        access_token_hash text unique,
        access_token_expires_at timestamptz
      )`);
    this.addSql('create index oidc_authorization_client_idx on oidc_authorization (client_id)');
    // jti of every accepted private_key_jwt assertion until it expires, so none is accepted twice.
    this.addSql(`
      create table oidc_client_assertion (
        client_id text not null references oidc_client (id) on delete cascade,
        jti text not null,
        expires_at timestamptz not null,
        primary key (client_id, jti)
      )`);
  }
}
