import { Migration } from '@mikro-orm/migrations';

/**
 * Signed webhooks per tenant (their endpoints, each event's delivery to each endpoint and every try
 * of it) and the Idempotency-Key answers of the integrator API, kept for 24 hours.
 */
export class Migration20261123000800_webhooks_idempotency extends Migration {
  override name = 'Migration20261123000800_webhooks_idempotency';

  override up(): void {
    // Secrets are sealed with KEY_ENCRYPTION_KEY; the previous one keeps signing until it expires.
    this.addSql(`
      create table webhook_endpoint (
        id uuid primary key,
        tenant_id text not null references tenant (id) on delete cascade,
        url text not null,
        events text[] not null,
        description text,
        secret_sealed text not null,
        previous_secret_sealed text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz not null,
        secret_rotated_at timestamptz
      )`);
    this.addSql('create index webhook_endpoint_tenant_idx on webhook_endpoint (tenant_id)');

    // No foreign key to the endpoint: its check would share-lock the endpoint row from every
    // transaction of the tenant that raises an event. Deleting an endpoint deletes its deliveries.
    this.addSql(`
      create table webhook_delivery (
        id uuid primary key,
        tenant_id text not null,
        endpoint_id uuid not null,
        event_type text not null,
        payload jsonb not null,
        outbox_id uuid not null,
        attempts integer not null default 0,
        last_status integer,
        last_error text,
        last_attempt_at timestamptz,
        delivered_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql('create index webhook_delivery_endpoint_idx on webhook_delivery (endpoint_id, created_at)');
    this.addSql(`
      create table webhook_attempt (
        id bigint generated always as identity primary key,
        delivery_id uuid not null references webhook_delivery (id) on delete cascade,
        at timestamptz not null,
        status integer,
        error text,
        duration_ms integer not null
      )`);
    this.addSql('create index webhook_attempt_delivery_idx on webhook_attempt (delivery_id, id)');

    // Claimed (answer null) at the start of the first request's transaction and answered before it
    // commits: a concurrent duplicate waits on the claim's row, then reads the answer.
    this.addSql(`
      create table idempotency_key (
        tenant_id text not null,
        key text not null,
        fingerprint text not null,
        status_code integer,
        response jsonb,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        primary key (tenant_id, key)
      )`);
    this.addSql('create index idempotency_key_expiry_idx on idempotency_key (expires_at)');
  }
}
