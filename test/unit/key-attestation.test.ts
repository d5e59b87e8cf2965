import { webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCertificate } from '../../server/keys/x509-certificate.js';
import type { OAuthError } from '../../server/oid4vci/oauth-error.js';
import { checkKeyAttestationLevels } from '../../server/oid4vci/proof/check-key-attestation-levels.js';
import { verifyKeyAttestation } from '../../server/oid4vci/proof/verify-key-attestation.js';
import type { Trust } from '../../server/trust/trust.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { x509 } from '../support/x5c-validation.js';

const der = (c: x509.X509Certificate) => Buffer.from(c.rawData).toString('base64');
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const newSigner = () =>
  webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]) as Promise<webcrypto.CryptoKeyPair>;

/** The OAuthError a call throws. */
async function refusal(call: () => unknown): Promise<OAuthError> {
  try {
    await call();
  } catch (e) {
    return e as OAuthError;
  }
  throw new Error('not refused');
}

/**
 * The key attestation check alone (OID4VCI 1.0 appendix D.1, HAIP "Key Attestation"): what the chain
 * rules mean for it, the key types this issuer binds to, and how required levels are matched.
 */
describe('key attestation JWT', () => {
  let ca: TestCa;
  /** The provider's root as a static anchor (WALLET_PROVIDER_TRUST_ANCHORS), no listed providers. */
  let anchors: Trust;
  let signer: webcrypto.CryptoKeyPair;
  let x5c: string[];
  let holder: JWK;
  const now = Math.floor(Date.now() / 1000);
  const sign = (payload: Record<string, unknown>, chain: string[], key = signer.privateKey) =>
    new SignJWT({ iat: now, exp: now + 600, ...payload })
      .setProtectedHeader({ alg: 'ES256', typ: 'key-attestation+jwt', x5c: chain })
      .sign(key);

  beforeAll(async () => {
    ca = await makeTestCa('Key Storage');
    anchors = { anchors: [parseCertificate(der(ca.root), 'root')], listed: [] };
    signer = await newSigner();
    x5c = [der(await ca.issueKey(signer.publicKey, { subject: 'CN=attester' })), der(ca.intermediate)];
    holder = await exportJWK((await generateKeyPair('ES256')).publicKey);
  });

  it('returns the attested keys (public members only), levels and nonce', async () => {
    const jwt = await sign({ attested_keys: [holder], key_storage: ['iso_18045_high'], nonce: 'n-1' }, x5c);
    expect(await verifyKeyAttestation(jwt, anchors, 'jwt', now)).toEqual({
      attestedKeys: [{ kty: 'EC', crv: 'P-256', x: holder.x, y: holder.y }],
      keyStorage: ['iso_18045_high'],
      nonce: 'n-1',
    });
  });

  it('refuses the root in x5c (HAIP: MUST NOT be included), like the wallet attestation check', async () => {
    const jwt = await sign({ attested_keys: [holder] }, [...x5c, der(ca.root)]);
    const refused = verifyKeyAttestation(jwt, anchors, 'jwt', now);
    await expect(refused).rejects.toMatchObject({ error: 'invalid_proof' });
    await expect(refused).rejects.toMatchObject({
      description: expect.stringMatching(/certificate 2 of x5c \(CN=.*\) is the trust anchor itself/),
    });
  });

  it('refuses a self-signed signing certificate (HAIP) as invalid_proof', async () => {
    const keys = await newSigner();
    const selfSigned = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=self',
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 3_600_000),
      signingAlgorithm: ALG,
      keys,
      // A root of its own signing directly: OpenSSL tells it self-issued only with keyCertSign.
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign,
          true,
        ),
      ],
    });
    const jwt = await sign({ attested_keys: [holder] }, [der(selfSigned)], keys.privateKey);
    const e = await refusal(() => verifyKeyAttestation(jwt, anchors, 'jwt', now));
    expect([e.error, e.description]).toEqual(['invalid_proof', expect.stringMatching(/self-signed/)]);
  });

  it('refuses an alg other than ES256, the one proof_signing_alg_values_supported (appendix F.1)', async () => {
    const p384 = await generateKeyPair('ES384');
    const jwt = await new SignJWT({ iat: now, exp: now + 600, attested_keys: [holder] })
      .setProtectedHeader({ alg: 'ES384', typ: 'key-attestation+jwt', x5c })
      .sign(p384.privateKey);
    const e = await refusal(() => verifyKeyAttestation(jwt, anchors, 'jwt', now));
    expect([e.error, e.description]).toEqual(['invalid_proof', 'key attestation alg must be ES256']);
  });

  it('refuses an attested key this issuer cannot bind to, no keys, and any attestation without anchors', async () => {
    const ed = await exportJWK((await generateKeyPair('EdDSA')).publicKey);
    const mixed = await sign({ attested_keys: [holder, ed] }, x5c);
    expect((await refusal(() => verifyKeyAttestation(mixed, anchors, 'jwt', now))).description).toMatch(
      /attested_keys\[1\] must be an EC P-256 key/,
    );
    const good = await sign({ attested_keys: [holder] }, x5c);
    expect(
      (await refusal(() => verifyKeyAttestation(good, { anchors: [], listed: [] }, 'jwt', now))).description,
    ).toMatch(/WALLET_PROVIDER_TRUST_ANCHORS/);
    const empty = await sign({ attested_keys: [] }, x5c);
    expect(
      (await refusal(() => verifyKeyAttestation(empty, anchors, 'attestation', now))).description,
    ).toMatch(/attested_keys must hold/);
  });
});

describe('key_attestations_required', () => {
  const attested = { attestedKeys: [] as JWK[] };

  it('{} asks for an attestation without constraints; null for none', async () => {
    expect(() => checkKeyAttestationLevels({}, attested)).not.toThrow();
    expect((await refusal(() => checkKeyAttestationLevels({}, undefined))).error).toBe('invalid_proof');
    expect(() => checkKeyAttestationLevels(null, undefined)).not.toThrow();
  });

  it('wants one asserted value meeting an accepted one in each list it names', async () => {
    const required = {
      key_storage: ['iso_18045_moderate', 'https://levels.example/se'],
      user_authentication: ['iso_18045_moderate'],
    };
    const ok = {
      ...attested,
      keyStorage: ['https://levels.example/se'],
      userAuthentication: ['iso_18045_moderate'],
    };
    expect(() => checkKeyAttestationLevels(required, ok)).not.toThrow();
    // ISO 18045 levels are ordered: a higher one meets a lower accepted one, a lower one does not.
    expect(() =>
      checkKeyAttestationLevels(required, {
        ...ok,
        keyStorage: ['iso_18045_high'],
        userAuthentication: ['iso_18045_high'],
      }),
    ).not.toThrow();
    const lower = await refusal(() =>
      checkKeyAttestationLevels(required, { ...ok, userAuthentication: ['iso_18045_enhanced-basic'] }),
    );
    expect([lower.error, lower.description]).toEqual([
      'invalid_proof',
      expect.stringMatching(/user_authentication \(iso_18045_enhanced-basic\) meets none/),
    ]);
    // An ecosystem's URL matches only itself.
    const otherUrl = await refusal(() =>
      checkKeyAttestationLevels(required, { ...ok, keyStorage: ['https://levels.example/tee'] }),
    );
    expect(otherUrl.description).toMatch(/key_storage \(https:\/\/levels.example\/tee\) meets none/);
    const absent = await refusal(() => checkKeyAttestationLevels(required, { ...ok, keyStorage: undefined }));
    expect(absent.description).toMatch(/key_storage \(absent\)/);
  });
});
