import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * Rate limits per client address and per tenant, answered with 429 and Retry-After in each
 * audience's format; counted in Redis so that every node sees them, in memory without Redis;
 * wrong tx_codes bounded per address across offers. Client addresses come from X-Forwarded-For
 * (the test is the trusted proxy), so each case has addresses of its own.
 */
const LIMITS = {
  TRUST_PROXY: 'loopback',
  RATE_LIMIT_ADDRESS_PER_MINUTE: '30',
  RATE_LIMIT_TX_CODE_FAILURES_PER_HOUR: '4',
  RATE_LIMIT_TENANT_PER_MINUTE: '1000',
};
const SMALL_TENANT = `small-${randomBytes(3).toString('hex')}`;
let f: TenantFixture;
let second: TestService;
let small: { id: string; integrator_token: string; scim_token: string };

beforeAll(async () => {
  f = await startTenantFixture({ ...LIMITS, RATE_LIMIT_TENANT_OVERRIDES: `${SMALL_TENANT}=3` });
  // A second (api) node on the same Redis key space and database.
  second = await startTestService({
    db: f.t.db,
    env: { ...LIMITS, ROLE: 'api', QUEUE_PREFIX: f.t.env.QUEUE_PREFIX ?? '' },
  });
  const created = await f.t.admin.createTenant({ body: acmeTenant(SMALL_TENANT) });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  small = created.body;
});
afterAll(async () => {
  await second?.stop();
  await f?.stop();
});

let n = 0;
const newAddress = () => `203.0.113.${++n}`;
const from = (address: string, headers: Record<string, string> = {}) => ({
  headers: { 'x-forwarded-for': address, ...headers },
});

async function exhaust(base: string, address: string, count: number) {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${base}/oid4vci/v1/nonce`, { method: 'POST', ...from(address) });
    expect(res.status).toBe(200);
  }
}

describe('per client address', () => {
  it('answers 429 with Retry-After in each audience’s format, and only for that address', async () => {
    const address = newAddress();
    await exhaust(f.t.baseUrl, address, 30);
    const base = f.t.baseUrl;
    const oauth = await fetch(`${base}/oid4vci/v1/nonce`, { method: 'POST', ...from(address) });
    expect(oauth.status).toBe(429);
    expect(Number(oauth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await oauth.json()).toMatchObject({ error: 'too_many_requests' });
    const scim = await fetch(`${base}/tenants/${f.tenant.id}/scim/v2/Users`, from(address));
    expect([scim.status, scim.headers.get('content-type')]).toEqual([
      429,
      expect.stringMatching(/scim\+json/),
    ]);
    expect(await scim.json()).toMatchObject({ status: '429', scimType: 'tooMany' });
    for (const path of ['/api/v1/me', '/admin/v1/tenants']) {
      const res = await fetch(`${base}${path}`, from(address));
      expect([res.status, res.headers.get('content-type')]).toEqual([
        429,
        expect.stringMatching(/problem\+json/),
      ]);
      expect(await res.json()).toMatchObject({
        type: 'urn:credservice:problem:too-many-requests',
        status: 429,
      });
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    // A person's browser on a page gets the page, not JSON.
    for (const path of ['/oid4vci/v1/offer/some-offer', '/oauth2/authorize?client_id=x']) {
      const res = await fetch(`${base}${path}`, from(address));
      expect([res.status, res.headers.get('content-type')]).toEqual([429, 'text/html; charset=utf-8']);
      expect(await res.text()).toMatch(/<h1>Too many requests<\/h1>/);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect((await fetch(`${base}/healthz`, from(address))).status).toBe(200);
    expect((await fetch(`${base}/oid4vci/v1/nonce`, { method: 'POST', ...from(newAddress()) })).status).toBe(
      200,
    );
  });

  it('is shared by the nodes through Redis', async () => {
    const address = newAddress();
    await exhaust(f.t.baseUrl, address, 20);
    await exhaust(second.baseUrl, address, 10);
    const res = await fetch(`${second.baseUrl}/oid4vci/v1/nonce`, { method: 'POST', ...from(address) });
    expect(res.status).toBe(429);
  });

  it('is counted in memory without Redis', async () => {
    const t = await startTestService({ redis: false, env: LIMITS });
    try {
      const address = newAddress();
      await exhaust(t.baseUrl, address, 30);
      expect(
        (await fetch(`${t.baseUrl}/oid4vci/v1/nonce`, { method: 'POST', ...from(address) })).status,
      ).toBe(429);
    } finally {
      await t.stop();
    }
  });
});

describe('tx_code guesses', () => {
  const redeem = async (
    address: string,
    location: string,
    txCode: string,
    endpoint = '/oid4vci/v1/token',
  ) => {
    const offer = (await (await fetch(location)).json()) as {
      grants: Record<string, { 'pre-authorized_code': string }>;
    };
    const code = Object.values(offer.grants)[0]?.['pre-authorized_code'] ?? '';
    return fetch(`${f.t.baseUrl}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code': code,
        tx_code: txCode,
      }),
    });
  };
  const wrong = (txCode: string) => String((Number(txCode) + 1) % 1_000_000).padStart(6, '0');

  it('are bounded per address across offers; right codes do not count', async () => {
    const offers = await Promise.all(
      [1, 2, 3].map((i) =>
        mailedOffer(f.integrator, f.smtp, `guess-${i}-${randomBytes(3).toString('hex')}@x.test`),
      ),
    );
    const [a, b, c] = offers as [(typeof offers)[0], (typeof offers)[0], (typeof offers)[0]];
    const guesser = newAddress();
    // Guesses at either token endpoint (both take the pre-authorized code) count against one budget;
    // a request that is no guess (here: no code at all) costs nothing.
    const malformed = await fetch(`${f.t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': guesser },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code' }),
    });
    expect(malformed.status).toBe(400);
    for (const [offer, status, endpoint] of [
      [a, 400, '/oid4vci/v1/token'],
      [a, 400, '/oauth2/token'],
      [b, 400, '/oid4vci/v1/token'],
      [c, 200, '/oauth2/token'], // the right code: given back
      [b, 400, '/oauth2/token'],
    ] as const) {
      const res = await redeem(
        guesser,
        offer.location,
        offer === c ? offer.txCode : wrong(offer.txCode),
        endpoint,
      );
      expect(res.status).toBe(status);
    }
    const refused = await redeem(guesser, b.location, b.txCode);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: 'too_many_requests' });
    // The offer itself is not locked (3 wrong codes of 5): from elsewhere its right code works.
    expect((await redeem(newAddress(), b.location, b.txCode)).status).toBe(200);
  });
});

describe('per tenant', () => {
  it('limits the tenant’s authenticated requests, SCIM and integrator alike, as configured for it', async () => {
    const whoAmI = async (token = small.integrator_token) =>
      (await fetch(`${f.t.baseUrl}/api/v1/me`, from(newAddress(), { authorization: `Bearer ${token}` })))
        .status;
    // Requests without the tenant's token do not use up its allowance.
    for (let i = 0; i < 5; i++) {
      const anonymous = await fetch(`${f.t.baseUrl}/tenants/${small.id}/scim/v2/Users`, from(newAddress()));
      expect(anonymous.status).toBe(401);
    }
    expect(await whoAmI()).toBe(200);
    const scim = (address: string) =>
      fetch(
        `${f.t.baseUrl}/tenants/${small.id}/scim/v2/Users`,
        from(address, { authorization: `Bearer ${small.scim_token}` }),
      );
    expect((await scim(newAddress())).status).toBe(200);
    expect(await whoAmI()).toBe(200);
    const limited = await scim(newAddress());
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ scimType: 'tooMany' });
    expect(await whoAmI()).toBe(429);
    // Another tenant is not affected.
    expect(await whoAmI(f.tenant.integrator_token)).toBe(200);
  });
});
