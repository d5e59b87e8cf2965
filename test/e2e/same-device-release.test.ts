import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failUnfollowedRedirects } from '../../server/verification/fail-unfollowed-redirects.js';
import { openEventStream, statusesOf } from '../support/event-stream.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { redeemResponseCode } from '../support/redeem-response-code.js';
import type { TenantFixture } from '../support/tenant-fixture.js';
import { tenantWithWebhooks } from '../support/tenant-with-webhooks.js';
import { until } from '../support/until.js';

/**
 * HAIP 1.0 section 5.1: a verifier rejects a same-device presentation whose wallet does not send the
 * browser back to the session that asked. What the service records of such an answer: verified
 * (audit event, presentation.verified webhook) only when the response code is redeemed with the
 * session binding; never redeemed by its deadline (the session's expiry, and at least five minutes
 * after the answer; moved into the past here rather than waited for), failed with
 * `redirect_not_followed`: at once for polling, and through the worker's sweep for the stream, the
 * audit trail and the webhooks, its withheld claims erased.
 */
let f: TenantFixture;

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ f, stop } = await tenantWithWebhooks());
});
afterAll(() => stop?.());

const poll = async (id: string) => {
  const res = await f.integrator.getAuthorizationRequest({ params: { id } });
  if (res.status !== 200) throw new Error(`poll: ${res.status}`);
  return res.body;
};

const redeem = (code: string, binding: string) => redeemResponseCode(f.t.baseUrl, f.tenant, code, binding);

const deliveriesFor = async (sessionId: string) =>
  (
    await f.sql.query(
      "select event_type, payload -> 'data' as data from webhook_delivery where payload -> 'data' ->> 'session_id' = $1",
      [sessionId],
    )
  ).rows as { event_type: string; data: Record<string, unknown> }[];

/** The audit actions of a session, sealed or not yet (the sealer moves them to audit_event). */
const auditActionsOf = async (sessionId: string) =>
  (
    await f.sql.query(
      `select action, actor, created_at from audit_pending where subject = $1
       union all select action, actor, created_at from audit_event where subject = $1 order by created_at`,
      [sessionId],
    )
  ).rows.map((r) => `${r.action} by ${r.actor.replace(/:.*/, '')}`);

/** A session with a redirect_uri, answered by a wallet through its same-device link. */
async function sameDeviceAnswer(email: string) {
  const { wallet } = await walletWithCredential(f.integrator, f.smtp, email);
  const created = await f.integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'LEARCredentialEmployee', redirect_uri: 'https://rp.example/cb' },
  });
  if (created.status !== 201) throw new Error(`session: ${created.status}`);
  const s = created.body;
  const answered = await wallet.present(s.authorization_request_uri, walletHttp);
  const code = new URL(answered.redirectUri ?? '').searchParams.get('code') ?? '';
  expect(await poll(s.session_id)).toMatchObject({ status: 'awaiting_redirect', verified: false });
  return { s, code };
}

describe('the audit trail and webhooks of a same-device answer', () => {
  it('say verified only when the redemption releases the result', async () => {
    const { s, code } = await sameDeviceAnswer('released@example.test');
    expect(await deliveriesFor(s.session_id)).toEqual([]);
    expect((await redeem(code, s.session_binding ?? '')).status).toBe(200);
    expect(await deliveriesFor(s.session_id)).toEqual([
      {
        event_type: 'presentation.verified',
        data: { session_id: s.session_id, credential_type: 'LEARCredentialEmployee' },
      },
    ]);
    expect(await auditActionsOf(s.session_id)).toEqual([
      'verification.requested by integrator',
      'verification.awaiting_redirect by wallet',
      'verification.verified by integrator',
    ]);
  });
});

describe('a same-device answer whose redirect never comes back', () => {
  it('fails with redirect_not_followed at its deadline, and releases nothing', async () => {
    const { s, code } = await sameDeviceAnswer('deadline@example.test');
    const stream = await openEventStream(`${f.t.baseUrl}/api/login/events?state=${s.session_id}`);
    await until(
      async () => stream.text(),
      (x) => x.includes('awaiting_redirect'),
    );
    // At least five minutes away: moved into the past, as if the browser never came back.
    await f.sql.query(
      "update presentation_session set response_code_expires_at = now() - interval '1 second' where id = $1",
      [s.session_id],
    );

    // Polling knows at once, before any sweep; the late code is refused even with the binding.
    const failed = await poll(s.session_id);
    expect(failed).toMatchObject({ status: 'failed', verified: false, reason: 'redirect_not_followed' });
    expect(failed).not.toHaveProperty('claims');
    const late = await redeem(code, s.session_binding ?? '');
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: 'invalid_grant' });

    // The worker's sweep writes it down: the watchers, the audit trail and the webhooks learn of it.
    const { orm, verifier } = f.t.service.context;
    expect(await failUnfollowedRedirects(orm, verifier.events)).toBeGreaterThanOrEqual(1);
    expect(statusesOf(await stream.done)).toEqual(['awaiting_redirect', 'failed']);
    const row = await f.sql.query(
      'select status, failure_reason, result, response_code_hash from presentation_session where id = $1',
      [s.session_id],
    );
    expect(row.rows[0]).toEqual({
      status: 'failed',
      failure_reason: 'redirect_not_followed',
      result: null,
      response_code_hash: null,
    });
    expect(await auditActionsOf(s.session_id)).toEqual([
      'verification.requested by integrator',
      'verification.awaiting_redirect by wallet',
      'verification.failed by verifier',
    ]);
    expect(await deliveriesFor(s.session_id)).toEqual([
      {
        event_type: 'presentation.failed',
        data: { session_id: s.session_id, reason: 'redirect_not_followed' },
      },
    ]);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason: 'redirect_not_followed' });
    // A session already ended is not swept again.
    expect(await failUnfollowedRedirects(orm, verifier.events)).toBe(0);
  });
});
