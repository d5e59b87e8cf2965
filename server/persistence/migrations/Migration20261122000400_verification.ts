import { Migration } from '@mikro-orm/migrations';

/** Presentation sessions of the verifier, tenants' trusted issuers, and key certificates. */
export class Migration20261122000400_verification extends Migration {
  override name = 'Migration20261122000400_verification';

  override up(): void {
    this.addSql('alter table signing_key add column certificate text');
    this.addSql(`
      create table presentation_session (
        id text primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        status text not null check (status in ('pending', 'verified', 'failed')),
        credential_configuration_id text,
        dcql_query jsonb not null,
        response_mode text not null check (response_mode in ('direct_post', 'direct_post.jwt')),
        nonce text not null,
        state text not null unique,
        redirect_uri text,
        enc_kid text unique,
        enc_key_sealed text,
        enc_public_jwk jsonb,
        result jsonb,
        failure_reason text,
        response_code_hash text unique,
        response_code_expires_at timestamptz,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        completed_at timestamptz
      )`);
    this.addSql(
      'create index presentation_session_tenant_idx on presentation_session (tenant_id, created_at)',
    );
    // Every vp_token accepted or refused once, so a replay to any session is recognised.
    this.addSql(`
      create table presented_token (
        token_hash text primary key,
        session_id text not null,
        created_at timestamptz not null
      )`);
    this.addSql(`
      create table trusted_issuer (
        tenant_id text not null references tenant (id) on delete cascade,
        issuer text not null,
        jwks jsonb,
        primary key (tenant_id, issuer)
      )`);
  }
}
