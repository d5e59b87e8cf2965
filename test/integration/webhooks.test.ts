import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { appendAuditEvent } from '../../server/audit/audit-log.js';
import { type CredentialOfferJson, employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { sleep, until } from '../support/until.js';
import { startWebhookReceiver, verifiesWith } from '../support/webhook-receiver.js';

let f: TenantFixture;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let hooks: ReturnType<typeof createClient>['webhooks'];
let endpoint: { id: string; secret: string };
let n = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  f = await startTenantFixture();
  hooks = createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).webhooks;
  const created = await hooks.createWebhook({ params: { id: f.tenant.id }, body: { url: receiver.url } });
  if (created.status !== 201) throw new Error(`webhook: ${created.status}`);
  endpoint = created.body;
});
afterAll(async () => {
  await f.stop();
  await receiver.close();
});

/** An offer redeemed at the token endpoint, as a wallet does it. */
async function redeemedOffer() {
  const o = await mailedOffer(f.integrator, f.smtp, `employee-${++n}@example.test`);
  const offer = (await (await fetch(o.location)).json()) as CredentialOfferJson;
  const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'];
  const res = await fetch(`${f.t.baseUrl}/oid4vci/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': code ?? '',
      tx_code: o.txCode,
    }),
  });
  expect(res.status).toBe(200);
  return o.offerId;
}

/** Appends an audit event in a transaction of the service's own, which commits or rolls back. */
async function audited(action: string, subject: string, commit: boolean) {
  const run = f.t.service.context.orm.em.fork().transactional(async (tx) => {
    await appendAuditEvent(tx, { tenantId: f.tenant.id, actor: 'test', action, subject });
    if (!commit) throw new Error('rolled back on purpose');
  });
  if (commit) await run;
  else await expect(run).rejects.toThrow('rolled back on purpose');
}

const deliveriesOf = async (subject: string) =>
  (
    await f.sql.query("select id from webhook_delivery where payload -> 'data' ->> 'issuance_id' = $1", [
      subject,
    ])
  ).rows;

describe('webhooks', () => {
  it('registers an endpoint with a whsec_ secret shown once, and lists it without', async () => {
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await hooks.listWebhooks({ params: { id: f.tenant.id } });
    expect(list.status).toBe(200);
    if (list.status !== 200) return;
    expect(list.body.items).toEqual([
      expect.objectContaining({
        id: endpoint.id,
        url: receiver.url,
        events: expect.arrayContaining(['issuance.redeemed']),
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('tells the endpoint once that an issuance was redeemed, signed per Standard Webhooks', async () => {
    const offerId = await redeemedOffer();
    const [m] = await receiver.waitFor(
      (r) => r.event.type === 'issuance.redeemed' && r.event.data.issuance_id === offerId,
    );
    expect(m && verifiesWith(endpoint.secret, m)).toBe(true);
    expect(m && verifiesWith(`whsec_${Buffer.alloc(32).toString('base64')}`, m)).toBe(false);
    expect(Math.abs((m?.timestamp ?? 0) - Date.now() / 1000)).toBeLessThan(60);
    expect(m?.event).toEqual({
      type: 'issuance.redeemed',
      timestamp: expect.any(String),
      tenant_id: f.tenant.id,
      data: { issuance_id: offerId },
    });
    await sleep(1_000);
    expect(
      receiver.received.filter(
        (r) => r.event.data.issuance_id === offerId && r.event.type === 'issuance.redeemed',
      ),
    ).toHaveLength(1);
    expect(await deliveriesOf(offerId)).toHaveLength(1);
  });

  it('tells of a credential issued directly and then revoked through the integrator API', async () => {
    const created = await f.integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'direct',
      },
    });
    if (created.status !== 201 || !created.body.credential_id) throw new Error(`issue: ${created.status}`);
    const credentialId = created.body.credential_id;
    const [issued] = await receiver.waitFor(
      (r) => r.event.type === 'credential.issued' && r.event.data.issuance_id === created.body.offer_id,
    );
    expect(issued?.event.data).toEqual({
      issuance_id: created.body.offer_id,
      credential_configuration_id: 'LEARCredentialEmployee',
      credential_ids: [credentialId],
    });
    expect((await f.integrator.revokeCredential({ params: { id: credentialId } })).status).toBe(200);
    const [revoked] = await receiver.waitFor(
      (r) => r.event.type === 'credential.revoked' && r.event.data.credential_id === credentialId,
    );
    expect(revoked && verifiesWith(endpoint.secret, revoked)).toBe(true);
    // Ids only: nothing of the employee's payload leaves with an event.
    expect(receiver.received.some((r) => r.body.includes(String(employeePayload().mandatee.email)))).toBe(
      false,
    );
  });

  it('sends nothing for a change that rolled back, and one for the same change committed', async () => {
    await audited('offer.redeemed', 'rolled-back-offer', false);
    await audited('offer.redeemed', 'committed-offer', true);
    await receiver.waitFor((r) => r.event.data.issuance_id === 'committed-offer');
    await sleep(500);
    expect(receiver.received.filter((r) => r.event.data.issuance_id === 'rolled-back-offer')).toEqual([]);
    expect(await deliveriesOf('rolled-back-offer')).toEqual([]);
  });

  it('tries again after the endpoint answers 500, and shows both tries', async () => {
    let refused = false;
    receiver.answerWith((m) => {
      if (m.event.data.issuance_id !== 'retried-offer' || refused) return 200;
      refused = true;
      return 500;
    });
    await audited('offer.redeemed', 'retried-offer', true);
    const tries = await receiver.waitFor((r) => r.event.data.issuance_id === 'retried-offer', 2);
    expect(new Set(tries.map((t) => t.id)).size).toBe(1);
    expect(tries.every((t) => verifiesWith(endpoint.secret, t))).toBe(true);
    const list = await until(
      () => hooks.listWebhookDeliveries({ params: { id: f.tenant.id, webhookId: endpoint.id }, query: {} }),
      (r) => r.status === 200 && r.body.items.some((d) => d.id === tries[0]?.id && d.status === 'delivered'),
    );
    if (list.status !== 200) throw new Error(`deliveries: ${list.status}`);
    const delivery = list.body.items.find((d) => d.id === tries[0]?.id);
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 200]);
    receiver.answerWith(() => 200);
  });

  it('replays a delivery with the same webhook-id', async () => {
    await audited('offer.redeemed', 'replayed-offer', true);
    const [first] = await receiver.waitFor((r) => r.event.data.issuance_id === 'replayed-offer');
    await until(
      async () =>
        (await f.sql.query('select delivered_at from webhook_delivery where id = $1', [first?.id])).rows[0],
      (row) => Boolean(row?.delivered_at),
    );
    const replay = await hooks.replayWebhookDelivery({
      params: { id: f.tenant.id, webhookId: endpoint.id, deliveryId: first?.id ?? '' },
    });
    expect(replay.status).toBe(202);
    const both = await receiver.waitFor((r) => r.event.data.issuance_id === 'replayed-offer', 2);
    expect(both.map((m) => m.id)).toEqual([first?.id, first?.id]);
  });

  it('signs with the old and the new secret while a rotation overlaps, then with the new one only', async () => {
    const rotated = await hooks.rotateWebhookSecret({
      params: { id: f.tenant.id, webhookId: endpoint.id },
      body: { previous_secret_expires_in: 3600 },
    });
    if (rotated.status !== 200) throw new Error(`rotate: ${rotated.status}`);
    await audited('offer.redeemed', 'overlap-offer', true);
    const [overlap] = await receiver.waitFor((r) => r.event.data.issuance_id === 'overlap-offer');
    expect(overlap?.signatures).toHaveLength(2);
    expect(overlap && verifiesWith(endpoint.secret, overlap)).toBe(true);
    expect(overlap && verifiesWith(rotated.body.secret, overlap)).toBe(true);

    const again = await hooks.rotateWebhookSecret({
      params: { id: f.tenant.id, webhookId: endpoint.id },
      body: { previous_secret_expires_in: 0 },
    });
    if (again.status !== 200) throw new Error(`rotate: ${again.status}`);
    await audited('offer.redeemed', 'after-overlap-offer', true);
    const [after] = await receiver.waitFor((r) => r.event.data.issuance_id === 'after-overlap-offer');
    expect(after?.signatures).toHaveLength(1);
    expect(after && verifiesWith(again.body.secret, after)).toBe(true);
    expect(after && verifiesWith(rotated.body.secret, after)).toBe(false);
    endpoint = { id: endpoint.id, secret: again.body.secret };
  });

  it('refuses a URL that is not http(s), an unknown event and an unknown tenant with 4xx', async () => {
    const ftp = await hooks.createWebhook({
      params: { id: f.tenant.id },
      body: { url: 'ftp://example.test/x' },
    });
    expect(ftp.status).toBe(400);
    const res = await fetch(`${f.t.baseUrl}/admin/v1/tenants/${f.tenant.id}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['issuance.exploded'] }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const nobody = await hooks.listWebhooks({ params: { id: 'no-such-tenant' } });
    expect(nobody.status).toBe(404);
    const list = await hooks.listWebhooks({ params: { id: f.tenant.id } });
    expect(list.status === 200 && list.body.items).toHaveLength(1);
  });

  it('sends only the events an endpoint subscribed to, and nothing once it is removed', async () => {
    const other = await hooks.createWebhook({
      params: { id: f.tenant.id },
      body: { url: `${receiver.url}?only=revoked`, events: ['credential.revoked'] },
    });
    if (other.status !== 201) throw new Error(`webhook: ${other.status}`);
    await audited('offer.redeemed', 'unsubscribed-offer', true);
    await audited('credential.revoked', 'revoked-credential', true);
    await receiver.waitFor((r) => r.event.data.credential_id === 'revoked-credential');
    await receiver.waitFor((r) => r.event.data.issuance_id === 'unsubscribed-offer');
    const toOther = await f.sql.query('select event_type from webhook_delivery where endpoint_id = $1', [
      other.body.id,
    ]);
    expect(toOther.rows).toEqual([{ event_type: 'credential.revoked' }]);

    expect(
      (await hooks.deleteWebhook({ params: { id: f.tenant.id, webhookId: other.body.id } })).status,
    ).toBe(204);
    expect(
      (await hooks.deleteWebhook({ params: { id: f.tenant.id, webhookId: other.body.id } })).status,
    ).toBe(404);
    await audited('credential.revoked', 'after-removal', true);
    await receiver.waitFor((r) => r.event.data.credential_id === 'after-removal');
    await sleep(500);
    expect(receiver.received.filter((r) => r.event.data.credential_id === 'after-removal')).toHaveLength(1);
  });
});
