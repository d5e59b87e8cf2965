import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProofJwt,
  credentialEncryptionOf,
  DeferredIssuance,
  discoverIssuer,
  inMemoryHolderCrypto,
  preAuthorizedGrant,
  requestCredential,
  requestDeferredCredential,
  requestNonce,
  requestPreAuthorizedToken,
  resolveCredentialOffer,
  verifySdJwtVc,
} from '../../clients/wallet/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import type { TenantFixture } from '../support/tenant-fixture.js';
import { tenantWithWebhooks } from '../support/tenant-with-webhooks.js';
import { until } from '../support/until.js';

/**
 * Deferred issuance behind an approval (OID4VCI 1.0 sections 8.3 and 9): an issuance created with
 * approval_required answers the wallet's credential request with 202 and a transaction_id; the
 * deferred credential endpoint answers 202 until the integrator approves (then the credentials,
 * once) or declines (credential_request_denied). The integrator hears of each step by webhook.
 */
const http = { allowHttp: true };
let f: TenantFixture;
let n = 0;

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ f, stop } = await tenantWithWebhooks());
});
afterAll(() => stop?.());

/** An approval-required offer redeemed by our wallet's parts, up to the deferred credential request. */
async function deferredRequest() {
  const email = `deferred${++n}@example.test`;
  const offer = await mailedOffer(f.integrator, f.smtp, email, employeePayload(), 'LEARCredentialEmployee', {
    approvalRequired: true,
  });
  const resolved = await resolveCredentialOffer(offer.offerUri, http);
  const { issuer, authorizationServer } = await discoverIssuer(resolved, http);
  const token = await requestPreAuthorizedToken(
    {
      tokenEndpoint: authorizationServer.token_endpoint,
      preAuthorizedCode: preAuthorizedGrant(resolved)['pre-authorized_code'],
      txCode: offer.txCode,
    },
    http,
  );
  const crypto = inMemoryHolderCrypto();
  const key = await crypto.createKey();
  const nonce = await requestNonce(issuer.nonce_endpoint as string, http);
  const proofJwt = await createProofJwt({ key, audience: issuer.credential_issuer, nonce }, crypto);
  const deferred = await requestCredential(
    {
      credentialEndpoint: issuer.credential_endpoint,
      accessToken: token.access_token,
      credentialConfigurationId: 'LEARCredentialEmployee',
      proofJwts: [proofJwt],
    },
    http,
  ).then(
    () => {
      throw new Error('issued at once');
    },
    (e: unknown) => e,
  );
  expect(deferred).toBeInstanceOf(DeferredIssuance);
  const { transactionId, interval } = deferred as DeferredIssuance;
  expect(interval).toBe(5);
  const ask = (id = transactionId) =>
    requestDeferredCredential(
      {
        deferredCredentialEndpoint: issuer.deferred_credential_endpoint as string,
        accessToken: token.access_token,
        transactionId: id,
        keyCount: 1,
      },
      http,
    );
  return {
    offerId: offer.offerId,
    offerUri: offer.offerUri,
    transactionId,
    key,
    issuer,
    ask,
    accessToken: token.access_token,
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
const statusOf = async (id: string) => {
  const res = await f.integrator.getIssuance({ params: { id } });
  return res.status === 200 ? res.body.status : `http ${res.status}`;
};
const auditActions = async (subject: string) =>
  (
    await f.sql.query(
      `select action from (select action, subject from audit_event
         union all select action, subject from audit_pending) e where subject = $1`,
      [subject],
    )
  ).rows.map((r) => r.action as string);
const webhookTypes = async (issuanceId: string) =>
  (
    await f.sql.query(
      "select event_type from webhook_delivery where payload -> 'data' ->> 'issuance_id' = $1",
      [issuanceId],
    )
  ).rows.map((r) => r.event_type as string);

describe('deferred issuance behind an approval', () => {
  it('advertises the deferred credential endpoint', async () => {
    const { issuer } = await deferredRequest();
    expect(issuer.deferred_credential_endpoint).toBe(`${f.t.baseUrl}/oid4vci/v1/deferred_credential`);
  });

  it('defers, answers 202 while pending, issues once approved, then refuses the spent transaction_id', async () => {
    const d = await deferredRequest();
    expect(await statusOf(d.offerId)).toBe('awaiting_approval');
    // The transaction_id is kept only as its hash.
    const { rows } = await f.sql.query(
      'select deferred_transaction_hash, deferred_holder_keys from issuance where id = $1',
      [d.offerId],
    );
    expect(rows[0].deferred_transaction_hash).not.toBe(d.transactionId);
    expect(rows[0].deferred_holder_keys).toEqual([d.key.publicJwk]);

    const pending = await failure(d.ask());
    expect(pending).toMatchObject({ name: 'DeferredIssuance', transactionId: d.transactionId, interval: 5 });

    const approved = await f.integrator.approveIssuance({ params: { id: d.offerId } });
    expect(approved).toMatchObject({ status: 200, body: { id: d.offerId, status: 'approved' } });

    const issued = await d.ask();
    expect(issued.credentials).toHaveLength(1);
    const verified = await verifySdJwtVc(issued.credentials[0] as string, {
      ...http,
      expectedIssuer: f.t.baseUrl,
      holderKeys: [d.key.publicJwk],
    });
    expect(verified.holderKey).toMatchObject({ x: d.key.publicJwk.x, y: d.key.publicJwk.y });
    expect(verified.status).toMatchObject({ value: 0 });
    const view = await f.integrator.getIssuance({ params: { id: d.offerId } });
    expect(view.status === 200 && view.body).toMatchObject({
      status: 'issued',
      credentials: [{ status: 'valid' }],
    });

    expect(await failure(d.ask())).toMatchObject({ status: 400, error: 'invalid_transaction_id' });
    expect(await auditActions(d.offerId)).toEqual(
      expect.arrayContaining(['issuance.awaiting_approval', 'issuance.approved', 'credential.issued']),
    );
    expect(
      await until(
        () => webhookTypes(d.offerId),
        (types) => types.includes('credential.issued'),
      ),
    ).toEqual(
      expect.arrayContaining(['issuance.awaiting_approval', 'issuance.approved', 'credential.issued']),
    );
  });

  it('answers credential_request_denied once declined, and 409 to a second decision', async () => {
    const d = await deferredRequest();
    const declined = await f.integrator.declineIssuance({ params: { id: d.offerId } });
    expect(declined).toMatchObject({ status: 200, body: { status: 'declined' } });
    expect(await failure(d.ask())).toMatchObject({ status: 400, error: 'credential_request_denied' });
    expect((await f.integrator.approveIssuance({ params: { id: d.offerId } })).status).toBe(409);
    expect((await f.integrator.declineIssuance({ params: { id: d.offerId } })).status).toBe(409);
    const { rows } = await f.sql.query('select payload, deferred_holder_keys from issuance where id = $1', [
      d.offerId,
    ]);
    expect(rows[0]).toEqual({ payload: null, deferred_holder_keys: null });
    expect(await auditActions(d.offerId)).toContain('issuance.declined');
    expect(
      await until(
        () => webhookTypes(d.offerId),
        (types) => types.includes('issuance.declined'),
      ),
    ).toContain('issuance.declined');
  });

  it('refuses an unknown transaction_id, and a second approval with 409', async () => {
    const d = await deferredRequest();
    expect(await failure(d.ask('not-a-transaction-id'))).toMatchObject({
      status: 400,
      error: 'invalid_transaction_id',
    });
    expect((await f.integrator.approveIssuance({ params: { id: d.offerId } })).status).toBe(200);
    expect((await f.integrator.approveIssuance({ params: { id: d.offerId } })).status).toBe(409);
  });

  it('follows the credential endpoint’s encryption rules: encrypted answers to encrypted asks, never in a plain request', async () => {
    const d = await deferredRequest();
    const plain = await fetch(d.issuer.deferred_credential_endpoint as string, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        transaction_id: d.transactionId,
        credential_response_encryption: { jwk: {}, enc: 'A128GCM' },
      }),
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: 'invalid_encryption_parameters' });
    const encryption = credentialEncryptionOf(d.issuer as never, true);
    if (!encryption) throw new Error('the issuer offers no encryption');
    const ask = (transactionId = d.transactionId) =>
      requestDeferredCredential(
        {
          deferredCredentialEndpoint: d.issuer.deferred_credential_endpoint as string,
          accessToken: d.accessToken,
          transactionId,
          keyCount: 1,
          encryption,
        },
        http,
      );
    expect(await failure(ask())).toBeInstanceOf(DeferredIssuance);
    expect((await f.integrator.approveIssuance({ params: { id: d.offerId } })).status).toBe(200);
    expect((await ask()).credentials).toHaveLength(1);
  });

  it('answers 409 to a decision on an issuance the wallet has not asked for yet', async () => {
    const offer = await mailedOffer(
      f.integrator,
      f.smtp,
      `early${++n}@example.test`,
      employeePayload(),
      undefined,
      {
        approvalRequired: true,
      },
    );
    expect(await statusOf(offer.offerId)).toBe('offered');
    expect((await f.integrator.approveIssuance({ params: { id: offer.offerId } })).status).toBe(409);
  });
});
