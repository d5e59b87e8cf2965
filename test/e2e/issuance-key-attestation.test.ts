import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';
import { type makeWalletProvider, walletProviderWithAnchorsFile } from '../support/wallet-provider.js';

/**
 * HAIP key attestations with a third-party wallet: @openid4vc/openid4vci reads the configuration's
 * key_attestations_required from the issuer metadata, puts the wallet provider's key attestation in
 * its jwt proof (or sends it as the attestation proof type), and @sd-jwt/sd-jwt-vc checks that the
 * credential is bound to the attested key. The wallet provider (its CA made here) signs the
 * attestation with typ key-attestation+jwt: the library's own createKeyAttestationJwt still writes
 * the draft typ keyattestation+jwt, which OID4VCI 1.0 replaced.
 */
let f: TenantFixture;
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let removeAnchors: () => Promise<void>;
let n = 0;

const REQUIRED = { key_storage: ['iso_18045_high'], user_authentication: ['iso_18045_moderate'] };

beforeAll(async () => {
  const made = await walletProviderWithAnchorsFile();
  ({ provider, remove: removeAnchors } = made);
  f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: made.anchors });
  const put = await f.t.admin.putCredentialConfiguration({
    params: { configurationId: 'HardwareBoundBadge' },
    body: {
      payload_schema: { type: 'object', required: ['holder'], properties: { holder: { type: 'string' } } },
      validity_seconds: 3600,
      display: [{ locale: 'en', name: 'Hardware-bound badge' }],
      key_attestations_required: REQUIRED,
    },
  });
  if (put.status !== 200) throw new Error(`configuration: ${put.status}`);
});
afterAll(async () => {
  await f?.stop();
  await removeAnchors?.();
});

const offer = () => {
  const email = `key-attested-${++n}@example.test`;
  return mailedOffer(f.integrator, f.smtp, email, { holder: email }, 'HardwareBoundBadge');
};

const issued = async (offerId: string) =>
  (
    await f.sql.query(
      `select i.status, count(c.id)::int as credentials from issuance i
       left join issued_credential c on c.issuance_id = i.id where i.id = $1 group by i.status`,
      [offerId],
    )
  ).rows;

/** The provider attests the holder key in the secure element's levels, for this c_nonce. */
const attest = (holderJwk: JWK, cNonce: string) =>
  provider.attestKeys([holderJwk], {
    nonce: cNonce,
    keyStorage: ['iso_18045_high'],
    userAuthentication: ['iso_18045_moderate'],
  });

describe('third-party wallet with key attestations', () => {
  it('sends the key attestation in its jwt proof and gets a credential bound to the attested key', async () => {
    const o = await offer();
    const attested: JWK[] = [];
    const received = await new ThirdPartyWallet().receive(o.offerUri, o.txCode, {
      keyAttestation: {
        attest: (jwk, cNonce) => {
          attested.push(jwk);
          return attest(jwk, cNonce);
        },
      },
    });
    expect(received.claims).toMatchObject({ holder: `key-attested-${n}@example.test` });
    expect(await calculateJwkThumbprint(received.holderJwk)).toBe(
      await calculateJwkThumbprint(attested[0] as JWK),
    );
    expect(await issued(o.offerId)).toEqual([{ status: 'issued', credentials: 1 }]);
  });

  it('sends the key attestation as the attestation proof type', async () => {
    const o = await offer();
    const received = await new ThirdPartyWallet().receive(o.offerUri, o.txCode, {
      keyAttestation: { attest, proofType: 'attestation' },
    });
    expect(received.notificationId).toBeDefined();
    expect(await issued(o.offerId)).toEqual([{ status: 'issued', credentials: 1 }]);
  });

  it('is told by the metadata that a key attestation is required, and the issuer refuses a weaker one', async () => {
    const o = await offer();
    await expect(new ThirdPartyWallet().receive(o.offerUri, o.txCode)).rejects.toThrow(
      /requires key attestations/,
    );
    const weak = (jwk: JWK, cNonce: string) =>
      provider.attestKeys([jwk], {
        nonce: cNonce,
        keyStorage: ['iso_18045_basic'],
        userAuthentication: ['iso_18045_moderate'],
      });
    // The first offer's code was redeemed before the library stopped: a new offer for the second try.
    const o2 = await offer();
    const refused = await new ThirdPartyWallet()
      .receive(o2.offerUri, o2.txCode, { keyAttestation: { attest: weak } })
      .then(
        () => undefined,
        (e: unknown) => e as { response?: { credentialErrorResponseResult?: { data?: unknown } } },
      );
    expect(JSON.stringify(refused?.response?.credentialErrorResponseResult ?? refused)).toContain(
      'invalid_proof',
    );
    expect(await issued(o2.offerId)).toEqual([{ status: 'redeemed', credentials: 0 }]);
  });
});
