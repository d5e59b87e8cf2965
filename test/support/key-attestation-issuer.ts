import { calculateJwkThumbprint, decodeJwt, type JWK } from 'jose';
import { type CredentialOfferJson, employeePayload } from './fixtures.js';
import { mailedOffer } from './mailed-offer.js';
import { startTenantFixture } from './tenant-fixture.js';
import { walletProviderWithAnchorsFile } from './wallet-provider.js';

/** The levels `SecureBadge` accepts, and an attestation's levels that meet them. */
export const REQUIRED = {
  key_storage: ['iso_18045_high', 'iso_18045_moderate'],
  user_authentication: ['iso_18045_high'],
};
export const STRONG = { keyStorage: ['iso_18045_moderate'], userAuthentication: ['iso_18045_high'] };

/** The thumbprints of the keys a credential response's credentials are bound to (`cnf.jwk`), in order. */
export async function boundKeys(res: Response): Promise<string[]> {
  const body = (await res.json()) as { credentials: { credential: string }[] };
  return Promise.all(
    body.credentials.map((c) => {
      const payload = decodeJwt(c.credential.split('~')[0] as string) as { cnf: { jwk: JWK } };
      return calculateJwkThumbprint(payload.cnf.jwk);
    }),
  );
}

export const thumbprints = (keys: { jwk: JWK }[]) =>
  Promise.all(keys.map((k) => calculateJwkThumbprint(k.jwk)));

/**
 * The service with a tenant, a wallet provider whose root is in WALLET_PROVIDER_TRUST_ANCHORS,
 * BATCH_SIZE 3, and `SecureBadge`, a configuration that requires key attestations at REQUIRED; and
 * raw HTTP helpers to get a c_nonce, redeem an offer up to its access token and ask for credentials.
 */
export async function startKeyAttestationIssuer() {
  const { provider, anchors, remove } = await walletProviderWithAnchorsFile();
  const f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: anchors, BATCH_SIZE: '3' });
  const put = await f.t.admin.putCredentialConfiguration({
    params: { configurationId: 'SecureBadge' },
    body: {
      payload_schema: { type: 'object', required: ['holder'], properties: { holder: { type: 'string' } } },
      validity_seconds: 3600,
      display: [{ locale: 'en', name: 'Secure badge' }],
      key_attestations_required: REQUIRED,
    },
  });
  if (put.status !== 200) throw new Error(`configuration: ${put.status}`);
  let n = 0;
  const post = (path: string, body: unknown, accessToken?: string) =>
    fetch(`${f.t.baseUrl}/oid4vci/v1/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify(body),
    });
  return {
    f,
    provider,
    issuer: f.t.service.context.config.issuerUrl,
    nonce: async () => ((await (await post('nonce', undefined)).json()) as { c_nonce: string }).c_nonce,
    /** An offer of `configurationId` redeemed up to the access token, its tx_code read from the mail. */
    async redeemedOffer(configurationId = 'SecureBadge') {
      const email = `attested-keys-${++n}@example.test`;
      const payload = configurationId === 'SecureBadge' ? { holder: email } : employeePayload();
      const o = await mailedOffer(f.integrator, f.smtp, email, payload, configurationId);
      const offer = (await (await fetch(o.location)).json()) as CredentialOfferJson;
      const grant = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code'];
      const tokenRes = await fetch(`${f.t.baseUrl}/oid4vci/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
          'pre-authorized_code': grant?.['pre-authorized_code'] ?? '',
          tx_code: o.txCode,
        }),
      });
      const { access_token } = (await tokenRes.json()) as { access_token: string };
      return { offerId: o.offerId, accessToken: access_token, configurationId };
    },
    request: (o: { accessToken: string; configurationId: string }, proofs: Record<string, unknown>) =>
      post('credential', { credential_configuration_id: o.configurationId, proofs }, o.accessToken),
    /** The issuance's status and how many credentials it has. */
    async state(offerId: string) {
      const { rows } = await f.sql.query(
        `select i.status, (select count(*)::int from issued_credential c where c.issuance_id = i.id) as credentials
         from issuance i where i.id = $1`,
        [offerId],
      );
      return rows[0];
    },
    async stop() {
      await f.stop();
      await remove();
    },
  };
}

export type KeyAttestationIssuer = Awaited<ReturnType<typeof startKeyAttestationIssuer>>;
