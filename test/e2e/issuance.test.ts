import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import {
  createProofJwt,
  discoverIssuer,
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  OAuthError,
  preAuthorizedGrant,
  requestCredential,
  requestNonce,
  requestPreAuthorizedToken,
  resolveCredentialOffer,
  verifySdJwtVc,
} from '../../clients/wallet/src/index.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';
import { until } from '../support/until.js';

/**
 * Issuance end to end: the integrator creates an offer, the tx_code arrives by real SMTP, a wallet
 * redeems the offer over OID4VCI, verifies what it gets, and sees a revocation in the status list.
 * The wallets know nothing but the offer link: every endpoint comes from the service's metadata.
 */
const http = { allowHttp: true };
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let t: TestService;
let integrator: ReturnType<typeof createIntegratorClient>;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestService({ env: { SMTP_URL: smtp.url } });
  const tenant = await t.admin.createTenant({ body: acmeTenant() });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status}`);
  integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: tenant.body.integrator_token });
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

/** An offer for `email` (delivery ui: the offer comes back, the tx_code goes by mail) and its tx_code. */
async function createOffer(email: string) {
  const mailsTo = () => smtp.messages.filter((m) => m.to.includes(email));
  const before = mailsTo().length;
  const { mandator } = acmeTenant();
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: {
        mandator,
        mandatee: { firstName: 'Erika', lastName: 'Mustermann', email },
        power: [{ function: 'Onboarding', action: ['Execute'] }],
      },
      delivery: 'ui',
      email,
    },
  });
  expect(res.status).toBe(201);
  if (res.status !== 201) throw new Error('createIssuance failed');
  expect(res.body.credential_offer_uri).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
  const mails = await until(
    async () => mailsTo(),
    (m) => m.length > before,
  );
  // Quoted-printable soft line breaks are the only encoding a short ASCII line can get.
  const text = (mails[before]?.raw ?? '').replace(/=\r?\n/g, '');
  const txCode = /Your activation code is: ([0-9A-Za-z]+)/.exec(text)?.[1];
  if (!txCode) throw new Error(`no activation code in the mail to ${email}`);
  return { offerId: res.body.offer_id, offerUri: res.body.credential_offer_uri as string, txCode };
}

/** The credential id of an issuance, and its status list entry, as the integrator sees them. */
async function issuedCredential(offerId: string) {
  const res = await integrator.getIssuance({ params: { id: offerId } });
  expect(res.status).toBe(200);
  if (res.status !== 200) throw new Error('getIssuance failed');
  expect(res.body.status).toBe('issued');
  expect(res.body.credentials).toHaveLength(1);
  return res.body.credentials[0] as (typeof res.body.credentials)[number];
}

async function revoke(credentialId: string) {
  const res = await integrator.revokeCredential({ params: { id: credentialId } });
  expect(res).toMatchObject({ status: 200, body: { id: credentialId, status: 'revoked' } });
}

const expectedClaims = {
  mandator: acmeTenant().mandator,
  mandatee: { firstName: 'Erika', lastName: 'Mustermann' },
  power: [{ function: 'Onboarding', action: ['Execute'] }],
};

const newWallet = () =>
  new HolderWallet({ crypto: inMemoryHolderCrypto(), store: inMemoryCredentialStore(), http });

describe('issuance to our wallet (clients/wallet)', () => {
  it('redeems the offer with the mailed tx_code, verifies the credential, and sees its revocation', async () => {
    const email = 'employee@example.test';
    const { offerId, offerUri, txCode } = await createOffer(email);
    const wallet = newWallet();
    const [stored] = await wallet.receive(offerUri, { txCode });
    if (!stored) throw new Error('nothing received');
    expect(stored.claims).toMatchObject({ ...expectedClaims, iss: t.baseUrl });

    // receive() verified already; verify again here to show each check and what it saw.
    const verified = await verifySdJwtVc(stored.compact, { ...http, expectedIssuer: t.baseUrl });
    expect(verified.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: expect.any(String) });
    expect(verified.claims.mandatee).toMatchObject({ email });
    // The mandatee's names are selectively disclosable: digests in the signed payload, values in disclosures.
    expect(verified.disclosed.map((d) => d.name)).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'email']),
    );
    expect(JSON.stringify(verified.signedPayload)).not.toContain('Mustermann');
    expect(verified.status).toMatchObject({ value: 0, label: 'VALID' });

    const issued = await issuedCredential(offerId);
    expect(issued).toMatchObject({ status: 'valid', status_list: verified.statusReference });
    expect(issued.wallet_notification).toBe('credential_accepted');

    await revoke(issued.id);
    const after = await until(
      () => wallet.checkStatus(stored.id),
      (s) => s.value !== 0,
    );
    expect(after).toMatchObject({ value: 1, label: 'INVALID' });
  });

  it('asks for two instances in one request and gets two, each bound to its own key and status entry', async () => {
    const { offerId, offerUri, txCode } = await createOffer('employee+batch@example.test');
    const stored = await newWallet().receive(offerUri, { txCode, keyCount: 2 });
    expect(stored).toHaveLength(2);
    expect(new Set(stored.map((c) => c.holderKeyId)).size).toBe(2);
    expect(new Set(stored.map((c) => JSON.stringify(c.statusReference))).size).toBe(2);
    const res = await integrator.getIssuance({ params: { id: offerId } });
    expect(res.status === 200 && res.body.credentials).toHaveLength(2);
  });
});

describe('issuance to a third-party wallet (@openid4vc/openid4vci, @sd-jwt/sd-jwt-vc)', () => {
  it('completes the same flow, verifies with @sd-jwt, and sees the revocation', async () => {
    const { offerId, offerUri, txCode } = await createOffer('employee+third-party@example.test');
    const wallet = new ThirdPartyWallet();
    const received = await wallet.receive(offerUri, txCode);
    expect(received.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256' });
    // It took the signed issuer metadata, which it refuses unless typed openidvci-issuer-metadata+jwt.
    expect(received.signedMetadata).toBe(true);
    expect(received.claims).toMatchObject(expectedClaims);
    expect(await wallet.status(received.credential)).toBe(0);
    expect(received.notificationId).toEqual(expect.any(String));

    const issued = await issuedCredential(offerId);
    expect(issued.wallet_notification).toBe('credential_accepted');
    await revoke(issued.id);
    expect(
      await until(
        () => wallet.status(received.credential),
        (s) => s !== 0,
      ),
    ).toBe(1);
    await expect(wallet.verify(received.credential, received.holderJwk)).rejects.toThrow(/status/i);
  });
});

describe('what a wallet sees when it gets things wrong', () => {
  /** Offer, metadata and a valid token request, step by step with the wallet's own functions. */
  async function openOffer(email: string) {
    const { offerUri, txCode } = await createOffer(email);
    const offer = await resolveCredentialOffer(offerUri, http);
    const { issuer, authorizationServer } = await discoverIssuer(offer, http);
    const tokenRequest = {
      tokenEndpoint: authorizationServer.token_endpoint,
      preAuthorizedCode: preAuthorizedGrant(offer)['pre-authorized_code'],
      txCode,
    };
    return { offer, issuer, tokenRequest };
  }

  /** The promise fails with the server's OAuth error response `error` and HTTP 400. */
  async function expectOAuthError(promise: Promise<unknown>, error: string) {
    const thrown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(OAuthError);
    expect(thrown).toMatchObject({ status: 400, error });
  }

  it('a wrong tx_code is invalid_grant', async () => {
    const { tokenRequest } = await openOffer('wrong-code@example.test');
    const wrong = tokenRequest.txCode.replace(/./g, (c) => (c === '9' ? '0' : c === 'z' ? 'a' : '9'));
    await expectOAuthError(
      requestPreAuthorizedToken({ ...tokenRequest, txCode: wrong }, http),
      'invalid_grant',
    );
  });

  it('a pre-authorized code redeemed a second time is invalid_grant', async () => {
    const { tokenRequest } = await openOffer('twice@example.test');
    expect((await requestPreAuthorizedToken(tokenRequest, http)).access_token).toEqual(expect.any(String));
    await expectOAuthError(requestPreAuthorizedToken(tokenRequest, http), 'invalid_grant');
  });

  it('a proof with a wrong nonce is invalid_nonce and one with a wrong aud invalid_proof; a good one then works', async () => {
    const { offer, issuer, tokenRequest } = await openOffer('bad-proofs@example.test');
    const token = await requestPreAuthorizedToken(tokenRequest, http);
    const crypto = inMemoryHolderCrypto();
    const key = await crypto.createKey();
    const nonceEndpoint = issuer.nonce_endpoint as string;
    const ask = async (audience: string, nonce: string) =>
      requestCredential(
        {
          credentialEndpoint: issuer.credential_endpoint,
          accessToken: token.access_token,
          credentialConfigurationId: offer.credential_configuration_ids[0] as string,
          proofJwts: [await createProofJwt({ key, audience, nonce }, crypto)],
        },
        http,
      );

    await expectOAuthError(ask(issuer.credential_issuer, 'not-a-nonce-of-this-issuer'), 'invalid_nonce');
    await expectOAuthError(
      ask('https://someone-else.example', await requestNonce(nonceEndpoint, http)),
      'invalid_proof',
    );
    // OID4VCI 8.3.1.2: after invalid_nonce the wallet fetches a fresh c_nonce and tries again.
    const ok = await ask(issuer.credential_issuer, await requestNonce(nonceEndpoint, http));
    expect(ok.credentials).toHaveLength(1);
  });
});
