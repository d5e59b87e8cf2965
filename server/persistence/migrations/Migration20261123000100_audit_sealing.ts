import { Migration } from '@mikro-orm/migrations';

/**
 * Audit events leave the request path: a request appends to `audit_pending` (one INSERT, no lock,
 * no read of the chain head) and a sealer moves them into `audit_event` in order, numbering and
 * hashing them, and signs the new head. `audit_event` itself stays append-only and fully sealed.
 */
export class Migration20261123000100_audit_sealing extends Migration {
  override name = 'Migration20261123000100_audit_sealing';

  override up(): void {
    // No foreign key to tenant: its check would share-lock the tenant row from every request of
    // the tenant (a multixact under load). The sealer's insert into audit_event checks it instead.
    this.addSql(`
      create table audit_pending (
        pos bigserial primary key,
        id uuid not null,
        tenant_id text not null,
        actor text not null,
        action text not null,
        subject text,
        details jsonb not null,
        created_at timestamptz not null
      )`);
    this.addSql('create index audit_pending_tenant_idx on audit_pending (tenant_id, pos)');

    // The head carries its signed checkpoint (a JWS over tenant, seq, hash and time).
    this.addSql('alter table audit_head add column checkpoint text, add column sealed_at timestamptz');
    // Heads written before checkpoints existed: the sealer finds them here and signs them once.
    this.addSql('create index audit_head_unsigned_idx on audit_head (tenant_id) where checkpoint is null');
  }
}
