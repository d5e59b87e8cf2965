import { Migration } from '@mikro-orm/migrations';

/**
 * HAIP same-device presentations: a session with a redirect_uri keeps the hash of a secret the
 * integrator got when it created the session, and its response code is only redeemed with that
 * secret (proof that the redirect came back to the browser session that started the request).
 * A tenant may choose `haip-vp` as the scheme of its request links (null: `openid4vp`).
 */
export class Migration20261123001100_same_device extends Migration {
  override name = 'Migration20261123001100_same_device';

  override up(): void {
    this.addSql('alter table presentation_session add column session_binding_hash text');
    this.addSql(
      "alter table tenant add column presentation_uri_scheme text check (presentation_uri_scheme in ('openid4vp', 'haip-vp'))",
    );
  }
}
