import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boundKeys,
  type KeyAttestationIssuer,
  STRONG,
  startKeyAttestationIssuer,
  thumbprints,
} from '../support/key-attestation-issuer.js';
import { holderKey } from '../support/proof-jwt.js';
import { makeWalletProvider } from '../support/wallet-provider.js';

/**
 * Each refusal of a key attestation (OID4VCI 1.0 appendix D, section 8.3.1.2 codes) at the
 * credential endpoint, for a configuration that requires one: the code the spec names, a
 * description that says why, nothing issued, and the c_nonce left unspent for a good request.
 */
let k: KeyAttestationIssuer;
beforeAll(async () => {
  k = await startKeyAttestationIssuer();
});
afterAll(() => k?.stop());

describe('key attestations refused at the credential endpoint', () => {
  it('refuses each bad key attestation with its code, issuing nothing and keeping the c_nonce', async () => {
    const o = await k.redeemedOffer();
    const [a, other] = [await holderKey(), await holderKey()];
    const c = await k.nonce();
    const now = Math.floor(Date.now() / 1000);
    const stranger = await makeWalletProvider('Stranger');
    const attest = (o2: Parameters<typeof k.provider.attestKeys>[1] = {}) =>
      k.provider.attestKeys([a.jwk as JWK], { ...STRONG, ...o2 });
    const jwtWith = async (attestation: string) => ({
      jwt: [await a.proof({ aud: k.issuer, nonce: c }, { key_attestation: attestation })],
    });
    // Each case with the code and what the description must name (so it fails for its own reason).
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        'required but missing',
        { jwt: [await a.proof({ aud: k.issuer, nonce: c })] },
        'invalid_proof',
        /requires a key attestation/,
      ],
      [
        'key_storage not accepted',
        await jwtWith(await attest({ keyStorage: ['iso_18045_basic'] })),
        'invalid_proof',
        /key_storage \(iso_18045_basic\) meets none/,
      ],
      [
        'user_authentication absent',
        await jwtWith(await k.provider.attestKeys([a.jwk as JWK], { keyStorage: ['iso_18045_high'] })),
        'invalid_proof',
        /user_authentication \(absent\)/,
      ],
      [
        'level on the attestation proof type',
        { attestation: [await attest({ nonce: c, userAuthentication: ['iso_18045_moderate'] })] },
        'invalid_proof',
        /user_authentication \(iso_18045_moderate\)/,
      ],
      [
        'untrusted root',
        await jwtWith(await stranger.attestKeys([a.jwk as JWK], STRONG)),
        'invalid_proof',
        /not signed by a trusted wallet provider/,
      ],
      [
        'the root in x5c',
        await jwtWith(
          await k.provider.attestKeys([a.jwk as JWK], {
            ...STRONG,
            x5c: [...k.provider.x5c, k.provider.rootX5c],
          }),
        ),
        'invalid_proof',
        /is the trust anchor itself, which must not be included in x5c/,
      ],
      [
        'signed by another key than the x5c leaf',
        await jwtWith(await stranger.attestKeys([a.jwk as JWK], { ...STRONG, x5c: k.provider.x5c })),
        'invalid_proof',
        /does not verify: signature verification failed/,
      ],
      [
        'proof key not attested',
        await jwtWith(await k.provider.attestKeys([other.jwk as JWK], STRONG)),
        'invalid_proof',
        /not signed by a key of its key attestation/,
      ],
      [
        'attestation proof without nonce',
        { attestation: [await attest()] },
        'invalid_proof',
        /must carry the c_nonce/,
      ],
      [
        'attestation proof with a wrong nonce',
        { attestation: [await attest({ nonce: 'not-a-c-nonce' })] },
        'invalid_nonce',
        /not a fresh c_nonce/,
      ],
      [
        'key_attestation with a wrong nonce',
        await jwtWith(await attest({ nonce: 'not-a-c-nonce' })),
        'invalid_nonce',
        /not a fresh c_nonce/,
      ],
      [
        'expired attestation',
        await jwtWith(await attest({ iat: now - 7200, exp: now - 3600 })),
        'invalid_proof',
        /has expired/,
      ],
      [
        'key_attestation without exp',
        await jwtWith(await attest({ exp: null })),
        'invalid_proof',
        /"exp" claim/,
      ],
      [
        'iat in the future',
        await jwtWith(await attest({ iat: now + 600 })),
        'invalid_proof',
        /iat is in the future/,
      ],
      [
        'draft typ keyattestation+jwt',
        await jwtWith(await attest({ typ: 'keyattestation+jwt' })),
        'invalid_proof',
        /typ must be key-attestation\+jwt/,
      ],
      [
        'two attestations',
        { attestation: [await attest({ nonce: c }), await attest({ nonce: c })] },
        'invalid_proof',
        /exactly one/,
      ],
    ];
    for (const [name, proofs, code, description] of cases) {
      const res = await k.request(o, proofs);
      const body = (await res.json()) as { error: string; error_description: string };
      expect({ name, status: res.status, error: body.error }).toEqual({ name, status: 400, error: code });
      expect(body.error_description, name).toMatch(description);
    }
    expect(await k.state(o.offerId)).toEqual({ status: 'redeemed', credentials: 0 });
    // The same c_nonce, in the key attestation too, still issues: no refusal spent it.
    const ok = await k.request(o, await jwtWith(await attest({ nonce: c })));
    expect(ok.status).toBe(200);
    expect(await boundKeys(ok)).toEqual(await thumbprints([a]));
  });
});
