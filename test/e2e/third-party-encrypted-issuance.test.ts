import { Openid4vciRetrieveCredentialsError } from '@openid4vc/openid4vci-next';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptingThirdPartyWallet, type WireExchange } from '../support/encrypting-third-party-wallet.js';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * Issue #24: encrypted credential responses (OID4VCI 1.0 sections 8.2, 9 and 10) with a client that
 * is not ours, @openid4vc/openid4vci 0.5.0-alpha. The library asks for the encrypted response with
 * its own ephemeral key, recognises the `application/jwt` answer, decrypts it through its callback
 * and validates the message; only the request's encryption is added in the wallet's fetch (the
 * library cannot encrypt requests). The credential is verified with @sd-jwt, as in the other
 * third-party tests.
 */
let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(async () => {
  await f?.stop();
});

/** The raw answer was a compact JWE to the wallet's response key, not JSON. */
function expectEncryptedTo(exchange: WireExchange | undefined, kid: string, enc: string) {
  expect(exchange?.requestType).toBe('application/jwt');
  expect(exchange?.responseType).toMatch(/^application\/jwt/);
  const body = exchange?.responseBody ?? '';
  expect(body.split('.')).toHaveLength(5);
  expect(() => JSON.parse(body)).toThrow();
  expect(decodeProtectedHeader(body)).toMatchObject({ alg: 'ECDH-ES', enc, kid });
}

/** What the library threw, with the issuer's error it parsed (or the response it refused). */
async function refusal(attempt: Promise<unknown>) {
  const e = await attempt.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(Openid4vciRetrieveCredentialsError);
  return (e as Openid4vciRetrieveCredentialsError)
    .response as Openid4vciRetrieveCredentialsError['response'] & {
    credentialErrorResponseResult?: { data?: { error?: string } };
    deferredCredentialResponseResult?: { error?: { issues: { message: string }[] } };
  };
}

describe('encrypted credential responses to a third-party client (@openid4vc/openid4vci 0.5.0-alpha)', () => {
  it('asks for an encrypted response, decrypts it itself, and the credential verifies', async () => {
    const offer = await mailedOffer(f.integrator, f.smtp, 'next-encrypted@example.test');
    const wallet = new EncryptingThirdPartyWallet();
    const { client } = wallet;
    const { issuerMetadata, accessToken, credentialConfigurationId } = await wallet.redeem(
      offer.offerUri,
      offer.txCode,
    );
    const { holderJwk, jwt } = await wallet.proof(issuerMetadata, credentialConfigurationId);
    const credentialResponseEncryption = await wallet.responseEncryption('A256GCM');
    const ask = () =>
      client.retrieveCredentials({
        issuerMetadata,
        accessToken,
        credentialConfigurationId,
        proofs: { jwt: [jwt] },
        credentialResponseEncryption,
      });

    // Why the fetch encrypts: the library's own plain request asking for an encrypted response is
    // refused (section 8.2), and nothing is spent, so the same proof works next.
    wallet.encryptRequests = false;
    const plain = await refusal(ask());
    expect(plain.response.status).toBe(400);
    expect(plain.credentialErrorResponseResult?.data?.error).toBe('invalid_encryption_parameters');
    expect(wallet.exchanges.at(-1)?.requestType).toBe('application/json');

    wallet.encryptRequests = true;
    const { response, credentialResponse } = await ask();
    expect(response.status).toBe(200);
    expectEncryptedTo(wallet.exchanges.at(-1), credentialResponseEncryption.jwk.kid, 'A256GCM');
    const entry = credentialResponse.credentials?.[0];
    const credential =
      typeof entry === 'object' && entry && 'credential' in entry ? entry.credential : undefined;
    expect(credential).toEqual(expect.any(String));
    const { claims } = await new ThirdPartyWallet().verify(credential as string, holderJwk);
    expect(claims).toMatchObject({ iss: f.t.baseUrl });
    expect((await f.integrator.getIssuance({ params: { id: offer.offerId } })).body).toMatchObject({
      status: 'issued',
    });
  });

  it('deferred: an encrypted 202 with a transaction_id, and the credential once approved', async () => {
    const offer = await mailedOffer(
      f.integrator,
      f.smtp,
      'next-deferred@example.test',
      employeePayload(),
      undefined,
      { approvalRequired: true },
    );
    const wallet = new EncryptingThirdPartyWallet();
    const { client } = wallet;
    const { issuerMetadata, accessToken, credentialConfigurationId } = await wallet.redeem(
      offer.offerUri,
      offer.txCode,
    );
    const { holderJwk, jwt } = await wallet.proof(issuerMetadata, credentialConfigurationId);
    const credentialResponseEncryption = await wallet.responseEncryption('A128GCM');
    const { kid } = credentialResponseEncryption.jwk;

    const first = await client.retrieveCredentials({
      issuerMetadata,
      accessToken,
      credentialConfigurationId,
      proofs: { jwt: [jwt] },
      credentialResponseEncryption,
    });
    expect(first.response.status).toBe(202);
    expectEncryptedTo(wallet.exchanges.at(-1), kid, 'A128GCM');
    const { transaction_id: transactionId, interval } = first.credentialResponse;
    expect(interval).toBe(5);
    if (!transactionId) throw new Error('no transaction_id');

    const deferred = () =>
      client.retrieveDeferredCredentials({
        issuerMetadata,
        accessToken,
        transactionId,
        credentialResponseEncryption,
      });
    const pending = await deferred();
    expect(pending.response.status).toBe(202);
    expect(pending.deferredCredentialResponse).toEqual({ transaction_id: transactionId, interval: 5 });
    expectEncryptedTo(wallet.exchanges.at(-1), kid, 'A128GCM');

    expect((await f.integrator.approveIssuance({ params: { id: offer.offerId } })).status).toBe(200);
    // The alpha still has 0.4.6's inverted deferred check (oid4vc-ts issue #245): it refuses
    // `notification_id` beside `credentials`, which section 9.2 allows. Its complaint names
    // notification_id, which it can only have read by decrypting the JWE itself.
    const refused = await refusal(deferred());
    expect(refused.response.status).toBe(200);
    expect(refused.deferredCredentialResponseResult?.error?.issues.map((i) => i.message)).toEqual([
      expect.stringContaining("'notification_id' MUST NOT be defined"),
    ]);
    const last = wallet.exchanges.at(-1);
    expectEncryptedTo(last, kid, 'A128GCM');
    // So the credential is read from that same answer with the key the library was given.
    const opened = await wallet.decrypt(last?.responseBody ?? '');
    const body = JSON.parse(opened.payload ?? '{}') as {
      credentials: { credential: string }[];
      notification_id: string;
    };
    expect(body.notification_id).toEqual(expect.any(String));
    const { claims } = await new ThirdPartyWallet().verify(
      body.credentials[0]?.credential as string,
      holderJwk,
    );
    expect(claims).toMatchObject({ iss: f.t.baseUrl });
  });

  it('a tenant with encryption_required refuses the library plain request, and takes it encrypted', async () => {
    const set = await f.t.admin.updateTenant({
      params: { id: f.tenant.id },
      body: { encryption_required: true },
    });
    expect(set).toMatchObject({ status: 200, body: { encryption_required: true } });
    try {
      const offer = await mailedOffer(f.integrator, f.smtp, 'next-required@example.test');
      const wallet = new EncryptingThirdPartyWallet();
      const { issuerMetadata, accessToken, credentialConfigurationId } = await wallet.redeem(
        offer.offerUri,
        offer.txCode,
      );
      const { jwt } = await wallet.proof(issuerMetadata, credentialConfigurationId);
      const request = { issuerMetadata, accessToken, credentialConfigurationId, proofs: { jwt: [jwt] } };

      // Exactly what the library sends on its own: plain JSON, no credential_response_encryption.
      wallet.encryptRequests = false;
      const plain = await refusal(wallet.client.retrieveCredentials(request));
      expect(plain.response.status).toBe(400);
      expect(plain.credentialErrorResponseResult?.data?.error).toBe('invalid_encryption_parameters');

      wallet.encryptRequests = true;
      const credentialResponseEncryption = await wallet.responseEncryption();
      const taken = await wallet.client.retrieveCredentials({ ...request, credentialResponseEncryption });
      expect(taken.response.status).toBe(200);
      expectEncryptedTo(wallet.exchanges.at(-1), credentialResponseEncryption.jwk.kid, 'A256GCM');
      expect(taken.credentialResponse.credentials).toHaveLength(1);
    } finally {
      await f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: { encryption_required: false } });
    }
  });
});
