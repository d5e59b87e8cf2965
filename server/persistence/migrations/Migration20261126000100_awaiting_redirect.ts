import { Migration } from '@mikro-orm/migrations';

/**
 * HAIP 1.0 same-device presentations are released only through their redirect: a verified answer
 * that got a response code is `awaiting_redirect` until the code is redeemed in the session that
 * asked, and fails (`redirect_not_followed`) at its deadline, `response_code_expires_at`, which the
 * sweep finds by the partial index. Answers recorded before as `verified` with a code still
 * redeemable, and not yet used by a sign-in, wait for their redirect as new ones do.
 */
export class Migration20261126000100_awaiting_redirect extends Migration {
  override name = 'Migration20261126000100_awaiting_redirect';

  override up(): void {
    this.addSql('alter table presentation_session drop constraint presentation_session_status_check');
    this.addSql(`alter table presentation_session add constraint presentation_session_status_check
      check (status in ('pending', 'awaiting_redirect', 'verified', 'failed'))`);
    this.addSql(`create index presentation_session_redirect_deadline_idx
      on presentation_session (response_code_expires_at) where status = 'awaiting_redirect'`);
    this.addSql(`update presentation_session s set status = 'awaiting_redirect'
      where s.status = 'verified' and s.response_code_hash is not null and s.response_code_expires_at > now()
        and not exists (select 1 from oidc_authorization a where a.session_id = s.id)`);
  }
}
