import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceType } from '../../server/trust/service-types.js';
import { tenantTrustChanged } from '../../server/trust/tenant-trust.js';
import { TrustSourceRow } from '../../server/trust/trust-source.entity.js';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { holderKey } from '../support/proof-jwt.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { makeWalletProvider } from '../support/wallet-provider.js';

/**
 * A wallet provider trusted only because a tenant's trust source lists it as `wallet_provider`
 * (no WALLET_PROVIDER_TRUST_ANCHORS): its wallet attestations pass the token endpoint and its key
 * attestations the credential endpoint while the source vouches, and not before it is added, after
 * it is removed, when the entry is of another service type or when the copy is past its grace. The
 * rows are written as a fetch would leave them, with next_fetch_at far ahead so no worker fetches.
 */
let f: TenantFixture;
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let n = 0;
const DAY = 86_400_000;

beforeAll(async () => {
  provider = await makeWalletProvider('Listed Wallet Provider');
  f = await startTenantFixture();
});
afterAll(() => f?.stop());

const changeSources = (
  change: (tx: ReturnType<typeof f.t.service.context.orm.em.fork>) => Promise<unknown>,
) =>
  f.t.service.context.orm.em.fork().transactional(async (tx) => {
    await change(tx);
    await tenantTrustChanged(tx, f.tenant.id);
  });

/** A LoTE source of the tenant listing the provider's root as `serviceType`, its copy's NextUpdate at `nextUpdate`. */
async function addSource(serviceType: ServiceType, nextUpdate = new Date(Date.now() + DAY)) {
  const id = randomUUID();
  await changeSources((tx) =>
    tx.insert(TrustSourceRow, {
      id,
      tenantId: f.tenant.id,
      type: 'lote',
      url: `https://lists.example/${id}.json`,
      signerCertificates: [],
      serviceTypes: [serviceType],
      createdAt: new Date(),
      listed: [{ entity: 'Test Wallet Provider', serviceType, certificates: [provider.rootX5c] }],
      fetchedAt: new Date(nextUpdate.getTime() - DAY),
      nextUpdate,
      nextFetchAt: new Date(Date.now() + 365 * DAY),
    }),
  );
  return id;
}

const removeSource = (id: string) => changeSources((tx) => tx.nativeDelete(TrustSourceRow, { id }));

/** A pre-authorized code and its tx_code, as the wallet has them from the offer. */
async function newOffer() {
  const o = await mailedOffer(f.integrator, f.smtp, `listed-provider-${++n}@example.test`);
  const offer = (await (await fetch(o.location)).json()) as CredentialOfferJson;
  const grant = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code'];
  return { code: grant?.['pre-authorized_code'] ?? '', txCode: o.txCode };
}

/** A token request authenticated with a fresh wallet attestation of `by` and its PoP. */
async function attestedToken(o: { code: string; txCode: string }, by = provider) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const pop = await new SignJWT({ aud: f.t.baseUrl, jti: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation-pop+jwt' })
    .setIssuedAt()
    .sign(privateKey);
  const res = await fetch(`${f.t.baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'oauth-client-attestation': await by.attest({ kty, crv, x, y } as JWK),
      'oauth-client-attestation-pop': pop,
    },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': o.code,
      tx_code: o.txCode,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const refused = (description: RegExp) => ({
  status: 401,
  body: expect.objectContaining({
    error: 'invalid_client',
    error_description: expect.stringMatching(description),
  }),
});

/** The proof types the issuer metadata offers for the employee credential. */
const proofTypes = async () => {
  const metadata = (await (await fetch(`${f.t.baseUrl}/.well-known/openid-credential-issuer`)).json()) as {
    credential_configurations_supported: Record<string, { proof_types_supported: Record<string, unknown> }>;
  };
  return Object.keys(
    metadata.credential_configurations_supported.LEARCredentialEmployee?.proof_types_supported ?? {},
  );
};

describe('wallet providers from trust sources', () => {
  it('trusts no wallet provider while no source lists one, nor one listed as pid_provider or past its grace', async () => {
    const o = await newOffer();
    expect(await attestedToken(o)).toEqual(refused(/trusts no wallet provider yet/));
    expect(await proofTypes()).toEqual(['jwt']);
    const pid = await addSource('pid_provider');
    expect(await attestedToken(o)).toEqual(refused(/trusts no wallet provider yet/));
    // NextUpdate two days ago: past the default grace of a day, the copy vouches for nothing.
    const stale = await addSource('wallet_provider', new Date(Date.now() - 2 * DAY));
    expect(await attestedToken(o)).toEqual(refused(/trusts no wallet provider yet/));
    expect(await proofTypes()).toEqual(['jwt']);
    await removeSource(pid);
    await removeSource(stale);
  });

  it('accepts its wallet and key attestations while a source lists it as wallet_provider, and not once it is removed', async () => {
    const source = await addSource('wallet_provider');
    // Another provider is still refused, as untrusted rather than for want of any provider.
    const stranger = await makeWalletProvider('Stranger');
    const o = await newOffer();
    expect(await attestedToken(o, stranger)).toEqual(
      refused(/^the client attestation is not issued by a trusted wallet provider$/),
    );

    const token = await attestedToken(o);
    expect(token).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
    expect(await proofTypes()).toEqual(['jwt', 'attestation']);
    // The attestation proof type: the provider's key attestation carries the c_nonce.
    const nonce = (await (await fetch(`${f.t.baseUrl}/oid4vci/v1/nonce`, { method: 'POST' })).json()) as {
      c_nonce: string;
    };
    const keys = [await holderKey(), await holderKey()];
    const attestation = await provider.attestKeys(
      keys.map((k) => k.jwk as JWK),
      { nonce: nonce.c_nonce },
    );
    const credential = await fetch(`${f.t.baseUrl}/oid4vci/v1/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.body.access_token}` },
      body: JSON.stringify({
        credential_configuration_id: 'LEARCredentialEmployee',
        proofs: { attestation: [attestation] },
      }),
    });
    expect(credential.status).toBe(200);

    await removeSource(source);
    expect(await attestedToken(await newOffer())).toEqual(refused(/trusts no wallet provider yet/));
    expect(await proofTypes()).toEqual(['jwt']);
  });
});
