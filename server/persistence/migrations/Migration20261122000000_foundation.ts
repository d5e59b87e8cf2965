import { Migration } from '@mikro-orm/migrations';

/** Tenants and their tokens, the audit log, the outbox, mail and signing keys. */
export class Migration20261122000000_foundation extends Migration {
  override name = 'Migration20261122000000_foundation';

  override up(): void {
    this.addSql(`
      create table tenant (
        id text primary key,
        name text not null,
        delivery text not null check (delivery in ('email', 'direct')),
        mandator jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table api_token (
        id uuid primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        kind text not null check (kind in ('integrator', 'scim')),
        secret_hash text not null,
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql('create index api_token_tenant_idx on api_token (tenant_id, kind)');

    this.addSql(`
      create table audit_event (
        id uuid primary key,
        tenant_id text not null references tenant (id),
        seq integer not null,
        actor text not null,
        action text not null,
        subject text,
        details jsonb not null,
        created_at timestamptz not null,
        prev_hash text not null,
        hash text not null,
        unique (tenant_id, seq)
      )`);
    this.addSql('create index audit_event_action_idx on audit_event (tenant_id, action, created_at)');
    this.addSql('create index audit_event_time_idx on audit_event (tenant_id, created_at)');
    // Append-only: ordinary writers cannot rewrite history; the hash chain catches anyone who can.
    this.addSql(`
      create function audit_event_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_event is append-only';
      end $$`);
    this.addSql(`
      create trigger audit_event_no_update before update or delete on audit_event
      for each row execute function audit_event_append_only()`);

    this.addSql(`
      create table outbox_message (
        id uuid primary key,
        topic text not null,
        payload jsonb not null,
        status text not null check (status in ('pending', 'dispatched', 'done', 'dead')),
        attempts integer not null default 0,
        available_at timestamptz not null,
        last_error text,
        created_at timestamptz not null,
        finished_at timestamptz
      )`);
    this.addSql(
      "create index outbox_message_due_idx on outbox_message (available_at) where status in ('pending', 'dispatched')",
    );

    // Relays LISTEN on this channel; NOTIFY is delivered only when the recording transaction commits.
    this.addSql(`
      create function outbox_message_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('outbox_message', '');
        return null;
      end $$`);
    this.addSql(`
      create trigger outbox_message_inserted after insert on outbox_message
      for each statement execute function outbox_message_notify()`);

    this.addSql(`
      create table mail_message (
        id uuid primary key,
        tenant_id text references tenant (id) on delete set null,
        template text not null,
        recipient text not null,
        params jsonb,
        created_at timestamptz not null,
        sent_at timestamptz
      )`);

    this.addSql(`
      create table signing_key (
        kid text primary key,
        purpose text not null,
        alg text not null,
        public_jwk jsonb not null,
        private_key_enc text not null,
        status text not null check (status in ('active', 'retiring', 'retired')),
        created_at timestamptz not null,
        retired_at timestamptz
      )`);
    this.addSql(
      "create unique index signing_key_one_active on signing_key (purpose) where status = 'active'",
    );
  }
}
