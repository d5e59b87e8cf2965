import { Migration } from '@mikro-orm/migrations';

/** Token Status Lists, their published tokens, and the allocation sequence they share. */
export class Migration20261122000100_status_lists extends Migration {
  override name = 'Migration20261122000100_status_lists';

  override up(): void {
    // nextval() takes no lock and is never rolled back: allocation inside a long issuance
    // transaction blocks no other issuance, and no number is handed out twice.
    this.addSql('create sequence status_list_entry_seq as bigint minvalue 0 start with 0');
    this.addSql(`
      create table status_list (
        id uuid primary key,
        seq_start bigint not null unique,
        size integer not null check (size > 0),
        bits smallint not null check (bits in (1, 2, 4, 8)),
        seed bytea not null check (length(seed) = 32),
        statuses bytea not null,
        version bigint not null default 0,
        created_at timestamptz not null,
        check (size * bits % 8 = 0),
        check (length(statuses) = size * bits / 8)
      )`);
    this.addSql(`
      create table status_list_token (
        list_id uuid primary key references status_list (id),
        version bigint,
        token text,
        issued_at timestamptz,
        expires_at timestamptz,
        refresh_at timestamptz
      )`);
  }
}
