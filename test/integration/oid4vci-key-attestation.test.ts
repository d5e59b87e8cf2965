import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boundKeys,
  type KeyAttestationIssuer,
  REQUIRED,
  STRONG,
  startKeyAttestationIssuer,
  thumbprints,
} from '../support/key-attestation-issuer.js';
import { holderKey } from '../support/proof-jwt.js';
import { makeWalletProvider } from '../support/wallet-provider.js';

/**
 * Key attestations at the credential endpoint (OID4VCI 1.0 appendix D, HAIP "Key Attestation"), over
 * raw HTTP with attestations a test wallet provider signs: the metadata and admin API of a
 * configuration that requires them, the `key_attestation` header of a jwt proof and the
 * `attestation` proof type. The refusals are in oid4vci-key-attestation-refusals.test.ts.
 */
let k: KeyAttestationIssuer;
beforeAll(async () => {
  k = await startKeyAttestationIssuer();
});
afterAll(() => k?.stop());

describe('key attestations: metadata and configuration', () => {
  it('advertises jwt and attestation proof types, with key_attestations_required where a configuration sets it', async () => {
    const metadata = (await (
      await fetch(`${k.f.t.baseUrl}/.well-known/openid-credential-issuer`)
    ).json()) as {
      credential_configurations_supported: Record<string, { proof_types_supported: unknown }>;
    };
    const es256 = { proof_signing_alg_values_supported: ['ES256'] };
    expect(metadata.credential_configurations_supported.SecureBadge?.proof_types_supported).toEqual({
      jwt: { ...es256, key_attestations_required: REQUIRED },
      attestation: { ...es256, key_attestations_required: REQUIRED },
    });
    expect(
      metadata.credential_configurations_supported.LEARCredentialEmployee?.proof_types_supported,
    ).toEqual({
      jwt: es256,
      attestation: es256,
    });
    const read = await k.f.t.admin.getCredentialConfiguration({ params: { configurationId: 'SecureBadge' } });
    expect(read.body).toMatchObject({ key_attestations_required: REQUIRED });
  });

  it('refuses a level that is neither an ISO 18045 value nor an https URL (problem+json 400)', async () => {
    const res = await k.f.t.admin.putCredentialConfiguration({
      params: { configurationId: 'BadLevel' },
      body: {
        payload_schema: { type: 'object' },
        validity_seconds: 3600,
        display: [{ locale: 'en', name: 'Bad' }],
        key_attestations_required: { key_storage: ['iso_18045_extreme'] as never },
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('key_attestations_required.key_storage');
    const missing = await k.f.t.admin.getCredentialConfiguration({ params: { configurationId: 'BadLevel' } });
    expect(missing.status).toBe(404);
  });
});

describe('key attestations at the credential endpoint', () => {
  it('jwt proof with key_attestation: a credential for the proof key and for each other attested key', async () => {
    const o = await k.redeemedOffer();
    const [a, b] = [await holderKey(), await holderKey()];
    // Made in advance, without a nonce (HAIP "Interoperable Key Attestations"): the proof's own
    // c_nonce makes the request fresh.
    const attestation = await k.provider.attestKeys([a.jwk as JWK, b.jwk as JWK], STRONG);
    const proof = await a.proof({ aud: k.issuer, nonce: await k.nonce() }, { key_attestation: attestation });
    const res = await k.request(o, { jwt: [proof] });
    expect(res.status).toBe(200);
    expect(await boundKeys(res)).toEqual(await thumbprints([a, b]));
    expect(await k.state(o.offerId)).toEqual({ status: 'issued', credentials: 2 });
  });

  it('attestation proof type: one credential per attested key, up to the batch size, the c_nonce spent', async () => {
    const o = await k.redeemedOffer();
    const keys = [await holderKey(), await holderKey(), await holderKey(), await holderKey()];
    const c = await k.nonce();
    const attestation = await k.provider.attestKeys(
      keys.map((k) => k.jwk as JWK),
      { ...STRONG, nonce: c, exp: null },
    );
    const res = await k.request(o, { attestation: [attestation] });
    expect(res.status).toBe(200);
    expect(await boundKeys(res)).toEqual(await thumbprints(keys.slice(0, 3)));
    const again = await k.request(await k.redeemedOffer(), { attestation: [attestation] });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_nonce');
  });

  it('without a requirement, a jwt proof needs no key attestation, and one sent is still checked', async () => {
    const o = await k.redeemedOffer('LEARCredentialEmployee');
    const a = await holderKey();
    const c = await k.nonce();
    const stranger = await makeWalletProvider('Stranger');
    const bad = await k.request(o, {
      jwt: [
        await a.proof(
          { aud: k.issuer, nonce: c },
          { key_attestation: await stranger.attestKeys([a.jwk as JWK]) },
        ),
      ],
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: 'invalid_proof',
      error_description: expect.stringMatching(/trust|anchor|untrusted/i),
    });
    const res = await k.request(o, { jwt: [await a.proof({ aud: k.issuer, nonce: c })] });
    expect(res.status).toBe(200);
  });
});
