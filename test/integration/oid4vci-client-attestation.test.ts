import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dpopKey } from '../support/dpop-proof.js';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { makeWalletProvider, walletProviderWithAnchorsFile } from '../support/wallet-provider.js';

/**
 * Wallet attestation as client authentication (attest_jwt_client_auth) over raw HTTP: each refused
 * attestation or PoP is invalid_client (401) and leaves the pre-authorized code usable; with
 * WALLET_ATTESTATION_REQUIRED and DPOP_REQUIRED, anonymous and bearer requests are refused.
 */
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let anchors: string;
let removeAnchors: () => Promise<void>;
let n = 0;

beforeAll(async () => {
  ({ provider, anchors, remove: removeAnchors } = await walletProviderWithAnchorsFile());
});
afterAll(() => removeAnchors());

/** A wallet instance key, and PoPs signed with it. */
async function instance() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const { kty, crv, x, y } = await exportJWK(publicKey);
  return {
    jwk: { kty, crv, x, y } as JWK,
    pop: (aud: string, o: { jti?: string; iat?: number } = {}) =>
      new SignJWT({
        aud,
        jti: o.jti ?? randomBytes(16).toString('base64url'),
        iat: o.iat ?? Math.floor(Date.now() / 1000),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation-pop+jwt' })
        .sign(privateKey),
  };
}

function suite(f: () => TenantFixture) {
  const base = () => f().t.baseUrl;
  const newOffer = async () => {
    const { offerId, location, txCode } = await mailedOffer(
      f().integrator,
      f().smtp,
      `attested-${++n}@example.test`,
    );
    const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
    const code =
      offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'] ?? '';
    return { offerId, code, txCode };
  };
  const token = (
    o: { code: string; txCode: string },
    headers: Record<string, string>,
    extra: Record<string, string> = {},
  ) =>
    fetch(`${base()}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code': o.code,
        tx_code: o.txCode,
        ...extra,
      }),
    });
  const status = async (offerId: string) =>
    (await f().sql.query('select status from issuance where id = $1', [offerId])).rows[0]?.status;
  return { base, newOffer, token, status };
}

describe('wallet attestation at the token endpoint (optional)', () => {
  let f: TenantFixture;
  beforeAll(async () => {
    f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: anchors });
  });
  afterAll(() => f.stop());
  const s = suite(() => f);

  it('refuses each bad attestation or PoP with invalid_client, and the code stays usable', async () => {
    const o = await s.newOffer();
    const wallet = await instance();
    const aud = s.base();
    const attestation = await provider.attest(wallet.jwk);
    const stranger = await makeWalletProvider('Stranger');
    const otherKey = await instance();
    const replayedJti = randomBytes(8).toString('hex');
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Record<string, string>, Record<string, string>?][] = [
      [
        'untrusted root',
        {
          'oauth-client-attestation': await stranger.attest(wallet.jwk),
          'oauth-client-attestation-pop': await wallet.pop(aud),
        },
      ],
      [
        'the root in x5c (HAIP: excluding the trust anchor)',
        {
          'oauth-client-attestation': await provider.attest(wallet.jwk, {
            x5c: [...provider.x5c, provider.rootX5c],
          }),
          'oauth-client-attestation-pop': await wallet.pop(aud),
        },
      ],
      [
        'x5c of another provider',
        {
          'oauth-client-attestation': await provider.attest(wallet.jwk, { x5c: stranger.x5c }),
          'oauth-client-attestation-pop': await wallet.pop(aud),
        },
      ],
      [
        'PoP by the wrong key',
        { 'oauth-client-attestation': attestation, 'oauth-client-attestation-pop': await otherKey.pop(aud) },
      ],
      [
        'client_id other than sub',
        { 'oauth-client-attestation': attestation, 'oauth-client-attestation-pop': await wallet.pop(aud) },
        { client_id: 'https://other.example/app' },
      ],
      [
        'PoP for another audience',
        {
          'oauth-client-attestation': attestation,
          'oauth-client-attestation-pop': await wallet.pop('https://elsewhere.example'),
        },
      ],
      [
        'stale PoP',
        {
          'oauth-client-attestation': attestation,
          'oauth-client-attestation-pop': await wallet.pop(aud, { iat: now - 300 }),
        },
      ],
      [
        'expired attestation',
        {
          'oauth-client-attestation': await provider.attest(wallet.jwk, { exp: now - 3600 }),
          'oauth-client-attestation-pop': await wallet.pop(aud),
        },
      ],
      [
        'wrong attestation typ',
        {
          'oauth-client-attestation': await provider.attest(wallet.jwk, { typ: 'jwt' }),
          'oauth-client-attestation-pop': await wallet.pop(aud),
        },
      ],
      ['attestation without PoP', { 'oauth-client-attestation': attestation }],
    ];
    for (const [what, headers, extra] of cases) {
      const res = await s.token(o, headers, extra);
      expect([what, res.status, await res.json()]).toEqual([
        what,
        401,
        expect.objectContaining({ error: 'invalid_client' }),
      ]);
    }
    expect(await s.status(o.offerId)).toBe('offered');
    const pop = await wallet.pop(aud, { jti: replayedJti });
    const ok = await s.token(
      o,
      { 'oauth-client-attestation': attestation, 'oauth-client-attestation-pop': pop },
      { client_id: 'https://wallet.example/app' },
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: 'Bearer' });
    // The same PoP for another offer: its jti is spent, and that offer stays open.
    const second = await s.newOffer();
    const replay = await s.token(second, {
      'oauth-client-attestation': attestation,
      'oauth-client-attestation-pop': pop,
    });
    expect([replay.status, await replay.json()]).toEqual([
      401,
      expect.objectContaining({ error: 'invalid_client' }),
    ]);
    expect(await s.status(second.offerId)).toBe('offered');
  });
});

describe('with WALLET_ATTESTATION_REQUIRED and DPOP_REQUIRED', () => {
  let f: TenantFixture;
  beforeAll(async () => {
    f = await startTenantFixture({
      WALLET_PROVIDER_TRUST_ANCHORS: anchors,
      WALLET_ATTESTATION_REQUIRED: 'true',
      DPOP_REQUIRED: 'true',
    });
  });
  afterAll(() => f.stop());
  const s = suite(() => f);

  it('advertises attestation as the only method, with no anonymous access', async () => {
    const meta = (await (await fetch(`${s.base()}/.well-known/oauth-authorization-server`)).json()) as {
      token_endpoint_auth_methods_supported: string[];
    };
    // The verifier's methods (same URL) stay; for wallets only attestation is left.
    expect(meta).toMatchObject({
      token_endpoint_auth_methods_supported: expect.arrayContaining(['attest_jwt_client_auth']),
      'pre-authorized_grant_anonymous_access_supported': false,
      dpop_signing_alg_values_supported: ['ES256'],
    });
    expect(meta.token_endpoint_auth_methods_supported).not.toContain('none');
  });

  it('refuses an anonymous wallet (invalid_client) and one without DPoP (invalid_dpop_proof), then issues a DPoP token', async () => {
    const o = await s.newOffer();
    const wallet = await instance();
    const key = await dpopKey();
    const nonce = (await fetch(`${s.base()}/oid4vci/v1/nonce`, { method: 'POST' })).headers.get(
      'dpop-nonce',
    ) as string;
    const dpop = () => key.proof({ htm: 'POST', htu: `${s.base()}/oauth2/token`, nonce });
    const attested = async () => ({
      'oauth-client-attestation': await provider.attest(wallet.jwk),
      'oauth-client-attestation-pop': await wallet.pop(s.base()),
    });
    const anonymous = await s.token(o, { dpop: await dpop() });
    expect([anonymous.status, await anonymous.json()]).toEqual([
      401,
      expect.objectContaining({ error: 'invalid_client' }),
    ]);
    const noDpop = await s.token(o, await attested());
    expect([noDpop.status, await noDpop.json()]).toEqual([
      400,
      expect.objectContaining({ error: 'invalid_dpop_proof' }),
    ]);
    expect(await s.status(o.offerId)).toBe('offered');
    const ok = await s.token(o, { ...(await attested()), dpop: await dpop() });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: 'DPoP' });
  });
});
