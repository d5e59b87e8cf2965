import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';
import { makeWalletProvider, walletProviderWithAnchorsFile } from '../support/wallet-provider.js';

/**
 * The pre-authorized code flow with a third-party wallet (@openid4vc/openid4vci and
 * @openid4vc/oauth2 make every DPoP proof and the attestation PoP) holding itself to its keys:
 * DPoP-bound access tokens (RFC 9449) and a wallet attestation as client authentication
 * (attest_jwt_client_auth), alone and together, against a wallet provider CA made here.
 */
let f: TenantFixture;
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let anchors: string;
let removeAnchors: () => Promise<void>;
let n = 0;

beforeAll(async () => {
  ({ provider, anchors, remove: removeAnchors } = await walletProviderWithAnchorsFile());
  f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: anchors });
});
afterAll(async () => {
  await f?.stop();
  await removeAnchors?.();
});

const employeeVct = () => `${f.t.service.context.config.issuerUrl}/credential-types/LEARCredentialEmployee`;

const offer = () => mailedOffer(f.integrator, f.smtp, `dpop-${++n}@example.test`);

const tokenRow = async (offerId: string) =>
  (await f.sql.query('select dpop_jkt from oid4vci_access_token where issuance_id = $1', [offerId])).rows;

const issuance = async (offerId: string) =>
  (
    await f.sql.query(
      `select i.status, c.wallet_notification from issuance i
       join issued_credential c on c.issuance_id = i.id where i.id = $1`,
      [offerId],
    )
  ).rows;

describe('third-party wallet with DPoP and wallet attestation', () => {
  it('advertises DPoP (ES256) and attest_jwt_client_auth in the authorization server metadata', async () => {
    for (const doc of ['oauth-authorization-server', 'openid-configuration']) {
      const meta = await (await fetch(`${f.t.baseUrl}/.well-known/${doc}`)).json();
      expect(meta).toMatchObject({
        dpop_signing_alg_values_supported: ['ES256'],
        token_endpoint_auth_methods_supported: expect.arrayContaining(['none', 'attest_jwt_client_auth']),
        'pre-authorized_grant_anonymous_access_supported': true,
      });
    }
  });

  it('gets a DPoP-bound token and uses it with proofs at the credential and notification endpoints', async () => {
    const o = await offer();
    const received = await new ThirdPartyWallet().receive(o.offerUri, o.txCode, { dpop: true });
    expect(received.tokenType).toBe('DPoP');
    expect(await tokenRow(o.offerId)).toEqual([
      { dpop_jkt: await calculateJwkThumbprint(received.dpopJwk as JWK) },
    ]);
    expect(received.notificationId).toBeDefined();
    expect(await issuance(o.offerId)).toEqual([
      { status: 'issued', wallet_notification: 'credential_accepted' },
    ]);
  });

  it('authenticates with a wallet attestation and a DPoP key together', async () => {
    const o = await offer();
    const wallet = new ThirdPartyWallet();
    const attestation = await provider.attest(await wallet.newInstanceKey());
    const received = await wallet.receive(o.offerUri, o.txCode, {
      dpop: true,
      clientAttestation: attestation,
    });
    expect(received.tokenType).toBe('DPoP');
    expect(received.claims).toMatchObject({ vct: employeeVct(), mandatee: { firstName: 'Ana' } });
    expect(await issuance(o.offerId)).toEqual([
      { status: 'issued', wallet_notification: 'credential_accepted' },
    ]);
  });

  it('authenticates with a wallet attestation alone and gets a Bearer token', async () => {
    const o = await offer();
    const wallet = new ThirdPartyWallet();
    const attestation = await provider.attest(await wallet.newInstanceKey());
    const received = await wallet.receive(o.offerUri, o.txCode, { clientAttestation: attestation });
    expect(received.tokenType).toBe('Bearer');
    expect(await tokenRow(o.offerId)).toEqual([{ dpop_jkt: null }]);
  });

  it('is refused when the attestation comes from a provider the operator does not trust', async () => {
    const o = await offer();
    const stranger = await makeWalletProvider('Unknown Provider');
    const wallet = new ThirdPartyWallet();
    const attestation = await stranger.attest(await wallet.newInstanceKey());
    await expect(
      wallet.receive(o.offerUri, o.txCode, { dpop: true, clientAttestation: attestation }),
    ).rejects.toThrow(/401/);
    // The offer is still there for the same wallet with a trusted attestation.
    const trusted = await provider.attest(await wallet.newInstanceKey());
    const received = await wallet.receive(o.offerUri, o.txCode, { dpop: true, clientAttestation: trusted });
    expect(received.tokenType).toBe('DPoP');
  });
});
