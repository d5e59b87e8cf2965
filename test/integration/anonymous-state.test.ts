import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pushSignIn } from '../support/pushed-sign-in.js';
import { freePort } from '../support/spawned-service.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * Anonymous endpoints create nothing an attacker can multiply: sign-ins started at /oauth2/authorize
 * (with the request_uri a relying party pushed) and c_nonces of the nonce endpoint leave no row and
 * no audit event, with Redis (the TTL store is shared by nodes) and without it (memory, the embedded
 * default); while Redis is down, a sign-in is refused with `temporarily_unavailable` where it
 * starts (PAR, 503), never a 500.
 */
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const TABLES = ['presentation_session', 'oidc_authorization', 'oid4vci_nonce'];
const services: TestService[] = [];
afterAll(async () => {
  for (const t of services) await t.stop();
});

async function serviceWithClient(opts: Parameters<typeof startTestService>[0]) {
  const t = await startTestService(opts);
  services.push(t);
  const tenant = await t.admin.createTenant({ body: acmeTenant() });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status}`);
  const client = await t.admin.createOidcClient({
    params: { id: tenant.body.id },
    body: {
      client_name: 'Intranet',
      redirect_uris: [REDIRECT_URI],
      credential_configuration_id: 'LEARCredentialEmployee',
      claims_mapping: { email: ['mandatee', 'email'] },
    } as never,
  });
  if (client.status !== 201) throw new Error(`client: ${client.status}`);
  const basic = { id: client.body.client_id, secret: client.body.client_secret as string };
  return { t, basic };
}

/** The relying party pushes its request (RFC 9126); the browser then opens pushed.url. */
const pushLogin = (t: TestService, basic: { id: string; secret: string }) => {
  const verifier = randomBytes(32).toString('base64url');
  return pushSignIn(
    t.baseUrl,
    {
      response_type: 'code',
      client_id: basic.id,
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      state: 'st',
      nonce: randomBytes(8).toString('hex'),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    },
    { basic },
  );
};

async function rowCounts(t: TestService): Promise<Record<string, number>> {
  const sql = new pg.Client({ connectionString: t.db.url });
  await sql.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of TABLES)
      counts[table] = (await sql.query(`select count(*)::int as n from ${table}`)).rows[0].n;
    // An audit event waits in audit_pending until the sealer moves it into the chain.
    const audit = 'select (select count(*) from audit_event) + (select count(*) from audit_pending) as n';
    counts.audit = Number((await sql.query(audit)).rows[0].n);
    return counts;
  } finally {
    await sql.end();
  }
}

describe.each([
  ['with Redis', {}],
  ['without Redis (memory)', { redis: false }],
])('anonymous requests %s', (_name, opts) => {
  it('start sign-ins and hand out c_nonces without writing a row or an audit event', async () => {
    const { t, basic } = await serviceWithClient(opts);
    const before = await rowCounts(t);
    const pages = await Promise.all(
      Array.from({ length: 25 }, async () => fetch((await pushLogin(t, basic)).url, { redirect: 'manual' })),
    );
    expect(pages.map((p) => p.status)).toEqual(Array(25).fill(200));
    const html = await pages[0]?.text();
    const sessionId = /data-session="([^"]+)"/.exec(html ?? '')?.[1];
    // The sign-in is real: its signed request object is served to a wallet from the TTL store.
    const request = await fetch(`${t.baseUrl}/oid4vp/auth-request/${sessionId}`);
    expect(request.status).toBe(200);
    expect((await request.text()).split('.')).toHaveLength(3);
    const events = await fetch(`${t.baseUrl}/api/login/events?state=${sessionId}`);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await events.body?.cancel();
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${t.baseUrl}/oid4vci/v1/nonce`, { method: 'POST' });
      expect(res.status).toBe(200);
    }
    expect(await rowCounts(t)).toEqual(before);
  });
});

describe('a sign-in while Redis is down', () => {
  it('goes back to the client as temporarily_unavailable, and nothing is written', async () => {
    const closed = `redis://127.0.0.1:${await freePort()}`;
    const { t, basic } = await serviceWithClient({ env: { REDIS_URL: closed, ROLE: 'api' } });
    const before = await rowCounts(t);
    const pushed = await pushLogin(t, basic);
    expect([pushed.status, pushed.json.error]).toEqual([503, 'temporarily_unavailable']);
    expect(await rowCounts(t)).toEqual(before);
  });
});
