import { Migration } from '@mikro-orm/migrations';

/**
 * OpenID4VP over the W3C Digital Credentials API (OID4VP 1.0 Appendix A): sessions answered through
 * the integrator's page (`dc_api`, `dc_api.jwt`) keep the origins their pages may be served from;
 * an answer counts only when it comes from one of them, bound by the wallet to `origin:<it>`.
 */
export class Migration20261124000400_dc_api extends Migration {
  override name = 'Migration20261124000400_dc_api';

  override up(): void {
    this.addSql('alter table presentation_session drop constraint presentation_session_response_mode_check');
    this.addSql(`alter table presentation_session add constraint presentation_session_response_mode_check
      check (response_mode in ('direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt'))`);
    this.addSql('alter table presentation_session add column expected_origins jsonb');
  }
}
