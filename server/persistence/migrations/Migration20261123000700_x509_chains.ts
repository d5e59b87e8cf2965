import { Migration } from '@mikro-orm/migrations';

/**
 * X.509 chains for the signing keys (HAIP: `x5c` without the trust anchor, leaf not self-signed):
 * the chain and who issued it per key, the deployment's development CA that issues leaves when no
 * chain is imported, and the client identifier prefix a presentation session was started with.
 */
export class Migration20261123000700_x509_chains extends Migration {
  override name = 'Migration20261123000700_x509_chains';

  override up(): void {
    this.addSql(`
      alter table signing_key
        add column certificate_chain jsonb,
        add column certificate_source text check (certificate_source in ('development', 'imported'))`);
    this.addSql(`
      create table development_ca (
        id text primary key,
        private_key_enc text not null,
        certificate text not null,
        created_at timestamptz not null default now()
      )`);
    // One per deployment.
    this.addSql('create unique index development_ca_one on development_ca ((true))');
    this.addSql(`
      alter table presentation_session
        add column client_id_prefix text not null default 'x509_hash'
          check (client_id_prefix in ('x509_hash', 'x509_san_dns'))`);
  }
}
