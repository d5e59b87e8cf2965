import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredIdempotencyKeys } from '../../server/idempotency/expire-idempotency-keys.js';
import { employeePayload } from '../support/fixtures.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { sleep } from '../support/until.js';

let f: TenantFixture;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const offerBody = (email: string) => ({
  credential_configuration_id: 'LEARCredentialEmployee',
  payload: employeePayload(),
  delivery: 'email',
  email,
});

/** Raw HTTP, so that the test sees exactly the status, headers and body a retrying client gets. */
const post = (path: string, body: unknown, key?: string) =>
  fetch(`${f.t.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${f.tenant.integrator_token}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });

/** The body of an answer, with the fields these tests read. */
const json = async (r: Response) => (await r.json()) as { offer_id?: string; session_id?: string };

const offersTo = async (email: string) =>
  (await f.sql.query('select id from issuance where email = $1', [email])).rows.map((r) => r.id as string);

describe('Idempotency-Key', () => {
  it('answers a retried issuance with the first answer, one offer and one mail', async () => {
    const email = `retry-${++n}@example.test`;
    const key = randomUUID();
    const first = await post('/issuances', offerBody(email), key);
    expect(first.status).toBe(201);
    const firstBody = await json(first);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/issuances', offerBody(email), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);

    expect(await offersTo(email)).toEqual([firstBody.offer_id]);
    // Two messages for one offer (the offer link and the tx_code); a second offer would add two more.
    await f.smtp.waitFor(2);
    await sleep(1_000);
    const mails = f.smtp.messages.filter((m) => m.to.includes(email));
    expect(mails).toHaveLength(2);
    expect(mails.filter((m) => /activation code is/.test(m.raw))).toHaveLength(1);
  });

  it('refuses the same key with another body with 422, creating nothing', async () => {
    const key = randomUUID();
    const email = `first-${++n}@example.test`;
    expect((await post('/issuances', offerBody(email), key)).status).toBe(201);
    const other = `other-${n}@example.test`;
    const res = await post('/issuances', offerBody(other), key);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      type: 'urn:credservice:problem:idempotency-key-reused',
      status: 422,
    });
    expect(await offersTo(other)).toEqual([]);
  });

  it('lets one of several concurrent duplicates create, the others wait and get its answer', async () => {
    const email = `race-${++n}@example.test`;
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post('/issuances', offerBody(email), key)),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(await Promise.all(answers.map(async (a) => (await json(a)).offer_id)));
    expect(ids.size).toBe(1);
    expect(await offersTo(email)).toEqual([...ids]);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
  });

  it('keeps a key free when its request failed, so the corrected retry creates', async () => {
    const key = randomUUID();
    const email = `fixed-${++n}@example.test`;
    const bad = await post(
      '/issuances',
      { ...offerBody(email), credential_configuration_id: 'NoSuchThing' },
      key,
    );
    expect(bad.status).toBe(400);
    const fixed = await post('/issuances', offerBody(email), key);
    expect(fixed.status).toBe(201);
    expect(await offersTo(email)).toHaveLength(1);
  });

  it('refuses a malformed key with 400', async () => {
    const res = await post('/issuances', offerBody(`bad-key-${++n}@example.test`), 'x'.repeat(300));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers a retried session creation with the same session', async () => {
    const key = randomUUID();
    const body = { credential_configuration_id: 'LEARCredentialEmployee', response_mode: 'direct_post' };
    const first = await post('/authorization-request', body, key);
    const again = await post('/authorization-request', body, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    const [a, b] = [await json(first), await json(again)];
    expect(b).toEqual(a);
    const { rows } = await f.sql.query('select count(*)::int as n from presentation_session where id = $1', [
      a.session_id,
    ]);
    expect(rows[0].n).toBe(1);
    const differentRoute = await post('/issuances', offerBody(`cross-${++n}@example.test`), key);
    expect(differentRoute.status).toBe(422);
  });

  it('frees a key after 24 hours, and the sweep deletes what expired', async () => {
    const key = randomUUID();
    const email = `expired-${++n}@example.test`;
    const first = await json(await post('/issuances', offerBody(email), key));
    await f.sql.query("update idempotency_key set expires_at = now() - interval '1 second' where key = $1", [
      key,
    ]);
    const later = await post('/issuances', offerBody(email), key);
    expect(later.status).toBe(201);
    expect((await json(later)).offer_id).not.toBe(first.offer_id);

    await f.sql.query("update idempotency_key set expires_at = now() - interval '1 second' where key = $1", [
      key,
    ]);
    expect(await sweepExpiredIdempotencyKeys(f.t.service.context.orm)).toBeGreaterThanOrEqual(1);
    const { rows } = await f.sql.query('select count(*)::int as n from idempotency_key where key = $1', [
      key,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
