import { Migration } from '@mikro-orm/migrations';

/**
 * Keys that live in a PKCS#11 token (KEY_STORE=pkcs11): such a row and the development CA's keep
 * only the token's reference to the key (label and CKA_ID), never key material, so
 * `private_key_enc` becomes optional. `destroyed_at` marks a retired key whose private part is gone
 * (C_DestroyObject in the token, the ciphertext wiped for a software key). `signing_key_event` is
 * the append-only record of every key's life: generated, rotated, certified, retired, destroyed.
 */
export class Migration20261128001000_key_stores extends Migration {
  override name = 'Migration20261128001000_key_stores';

  override up(): void {
    this.addSql(`
      alter table signing_key
        alter column private_key_enc drop not null,
        add column key_store text not null default 'local' check (key_store in ('local', 'pkcs11')),
        add column token_key jsonb,
        add column destroyed_at timestamptz,
        add constraint signing_key_material check (
          destroyed_at is not null
          or (key_store = 'local' and private_key_enc is not null)
          or (key_store = 'pkcs11' and token_key is not null and private_key_enc is null))`);
    this.addSql(`
      alter table development_ca
        alter column private_key_enc drop not null,
        add column token_key jsonb,
        add constraint development_ca_material check ((private_key_enc is null) <> (token_key is null))`);
    this.addSql(`
      create table signing_key_event (
        id bigserial primary key,
        kid text not null,
        purpose text not null,
        action text not null,
        actor text not null,
        details jsonb not null default '{}',
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index signing_key_event_kid_idx on signing_key_event (kid, id)');
    this.addSql(`
      create function signing_key_event_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'signing_key_event is append-only';
      end $$`);
    this.addSql(`
      create trigger signing_key_event_no_update before update or delete on signing_key_event
      for each row execute function signing_key_event_append_only()`);
  }
}
