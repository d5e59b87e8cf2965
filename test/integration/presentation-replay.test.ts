import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * The response endpoint under races and loose queries: one vp_token sent to many sessions at once is
 * taken by exactly one (a conditional insert, not a caught key violation: no 500), the others stay
 * pending; a dcql_query that is not DCQL is refused when the integrator sends it, and one stored
 * before that check fails its session instead of leaving it pending behind a 500.
 */
let f: TenantFixture;
beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

async function directPostSession() {
  const res = await f.integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode: 'direct_post' },
  });
  if (res.status !== 201) throw new Error(`session: ${res.status}`);
  const requestUri = decodeURIComponent(res.body.authorization_request_uri.split('request_uri=')[1] ?? '');
  const jwt = await (await fetch(requestUri)).text();
  const state = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()).state as string;
  return { id: res.body.session_id, uri: res.body.authorization_request_uri, state };
}

/** The form the wallet would post for `uri`, captured instead of sent. */
async function capturedResponse(
  wallet: Awaited<ReturnType<typeof walletWithCredential>>['wallet'],
  uri: string,
) {
  let body = '';
  const capture: typeof fetch = async (input, init) => {
    if (init?.method !== 'POST') return fetch(input, init);
    body = String(init.body);
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  await wallet.present(uri, { ...walletHttp, fetch: capture });
  return new URLSearchParams(body);
}

const respond = (form: Record<string, string>) =>
  fetch(`${f.t.baseUrl}/oid4vp/auth-response`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

const statusOf = async (id: string) => {
  const res = await f.integrator.getAuthorizationRequest({ params: { id } });
  if (res.status !== 200) throw new Error(`poll: ${res.status}`);
  return res.body.status;
};

describe('one vp_token sent to 20 sessions at once', () => {
  it('is taken by exactly one session; the others answer 400 and stay pending', async () => {
    const h = await walletWithCredential(f.integrator, f.smtp, 'racer@example.test');
    const sessions = await Promise.all(Array.from({ length: 20 }, directPostSession));
    const vpToken = (await capturedResponse(h.wallet, sessions[0]?.uri ?? '')).get('vp_token') ?? '';
    const answers = await Promise.all(sessions.map((s) => respond({ vp_token: vpToken, state: s.state })));
    type Answer = { status: number; error?: string; error_description?: string };
    const bodies: Answer[] = await Promise.all(
      answers.map(async (a) => ({ status: a.status, ...((await a.json()) as object) })),
    );
    expect(bodies.filter((b) => b.status >= 500)).toEqual([]);
    const replays = bodies.filter((b) => /presented before/.test(b.error_description ?? ''));
    expect(replays).toHaveLength(19);
    expect(replays.every((b) => b.status === 400 && b.error === 'invalid_request')).toBe(true);
    const statuses = await Promise.all(sessions.map((s) => statusOf(s.id)));
    expect(statuses.filter((s) => s !== 'pending')).toHaveLength(1);
    const { rows } = await f.sql.query(
      `select count(*)::int as n from presented_token where session_id = any($1)`,
      [sessions.map((s) => s.id)],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('a loose dcql_query', () => {
  it('is refused at creation with the offending fields', async () => {
    const res = await f.integrator.createAuthorizationRequest({
      body: { dcql_query: { credentials: [{ id: 'employee', format: 'dc+sd-jwt' }] } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/dcql_query\.credentials\.0\.meta/);
  });

  it('stored before that check, fails its session when the wallet answers, never a 500', async () => {
    const h = await walletWithCredential(f.integrator, f.smtp, 'loose@example.test');
    const s = await directPostSession();
    const form = await capturedResponse(h.wallet, s.uri);
    await f.sql.query(
      `update presentation_session set dcql_query = '{"credentials":[{"id":"employee"}]}' where id = $1`,
      [s.id],
    );
    const res = await respond(Object.fromEntries(form));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: /invalid_query/ });
    const poll = await f.integrator.getAuthorizationRequest({ params: { id: s.id } });
    expect(poll.body).toMatchObject({ status: 'failed', reason: 'invalid_query' });
  });
});
