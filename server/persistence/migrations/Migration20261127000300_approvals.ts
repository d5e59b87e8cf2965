import { Migration } from '@mikro-orm/migrations';

/**
 * Approvals are presentation sessions that carry OpenID4VP `transaction_data` (kept as sent: the
 * holder's key binding hashes these very strings) and the transaction and power they ask for.
 */
export class Migration20261127000300_approvals extends Migration {
  override name = 'Migration20261127000300_approvals';

  override up(): void {
    this.addSql(
      'alter table presentation_session add column transaction_data jsonb, add column approval_id text, add column approval jsonb',
    );
    this.addSql(
      'create unique index presentation_session_approval on presentation_session (approval_id) where approval_id is not null',
    );
  }
}
