import { webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Certificate, parseCertificate } from '../../server/keys/x509-certificate.js';
import { verifyClientAttestation } from '../../server/oid4vci/client-attestation/verify-client-attestation.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { x509 } from '../support/x5c-validation.js';

const der = (c: x509.X509Certificate) => Buffer.from(c.rawData).toString('base64');

/**
 * The wallet attestation's `x5c` goes through the verifier's chain check (validateChain): its
 * failures come out as invalid_client, and what that check refuses (a leaf that may not sign) holds
 * for attestations too. The one difference: the root itself in x5c, which the verifier drops from a
 * credential's chain, is refused here (HAIP, Wallet Attestation: the chain "excluding the trust
 * anchor"; issue 21).
 */
describe('client attestation x5c', () => {
  let ca: TestCa;
  let anchors: Certificate[];
  let signer: webcrypto.CryptoKeyPair;
  let instanceJwk: Record<string, unknown>;
  beforeAll(async () => {
    ca = await makeTestCa('Provider');
    anchors = [parseCertificate(der(ca.root), 'root')];
    signer = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    instanceJwk = await exportJWK((await generateKeyPair('ES256')).publicKey);
  });

  const attest = (x5c: string[]) =>
    new SignJWT({ sub: 'https://wallet.example/app', cnf: { jwk: instanceJwk } })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation+jwt', x5c })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signer.privateKey);
  const leaf = (keyUsage?: x509.KeyUsageFlags) =>
    ca.issueKey(signer.publicKey, { subject: 'CN=attestation signer', ...(keyUsage ? { keyUsage } : {}) });

  it('accepts leaf and issuing CA', async () => {
    const x5c = [der(await leaf()), der(ca.intermediate)];
    expect(await verifyClientAttestation(await attest(x5c), anchors)).toMatchObject({
      sub: 'https://wallet.example/app',
    });
  });

  it('refuses the root in x5c, trailing or anywhere, as invalid_client saying so', async () => {
    const chain = [der(await leaf()), der(ca.intermediate)];
    for (const [x5c, at] of [
      [[...chain, der(ca.root)], 2],
      [[chain[0] as string, der(ca.root), chain[1] as string], 1],
      [[der(ca.root)], 0],
    ] as const) {
      const refused = verifyClientAttestation(await attest([...x5c]), anchors);
      await expect(refused).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
      await expect(refused).rejects.toMatchObject({
        description: `client attestation x5c: certificate ${at} of x5c (${ca.root.subject}) is the trust anchor itself, which must not be included in x5c (HAIP 1.0)`,
      });
    }
  });

  it('refuses an unknown provider, a leaf that may not sign and a broken chain, as invalid_client', async () => {
    const stranger = await makeTestCa('Stranger');
    const cases: [string[], RegExp][] = [
      [
        [der(await stranger.issueKey(signer.publicKey)), der(stranger.intermediate)],
        /trusted wallet provider/,
      ],
      [[der(await leaf(x509.KeyUsageFlags.keyAgreement)), der(ca.intermediate)], /digitalSignature/],
      [[der(await leaf()), der(stranger.intermediate)], /not issued by/],
      [[], /x5c/],
    ];
    for (const [x5c, reason] of cases) {
      const refused = verifyClientAttestation(await attest(x5c), anchors);
      await expect(refused).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
      await expect(refused).rejects.toMatchObject({ description: expect.stringMatching(reason) });
    }
  });
});
