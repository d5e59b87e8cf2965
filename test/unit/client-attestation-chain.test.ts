import { webcrypto } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCertificate } from '../../server/keys/x509-certificate.js';
import { verifyClientAttestation } from '../../server/oid4vci/client-attestation/verify-client-attestation.js';
import { type Trust, trustOf } from '../../server/trust/trust.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { x509 } from '../support/x5c-validation.js';

const der = (c: x509.X509Certificate) => Buffer.from(c.rawData).toString('base64');

/**
 * The wallet attestation's `x5c` goes through the verifier's chain check (validateChain): its
 * failures come out as invalid_client, and what that check refuses (a leaf that may not sign) holds
 * for attestations too. The one difference: the root itself in x5c, which the verifier drops from a
 * credential's chain, is refused here (HAIP, Wallet Attestation: the chain "excluding the trust
 * anchor"; issue 21). A root a trust source lists as wallet_provider anchors it like a static one.
 */
describe('client attestation x5c', () => {
  let ca: TestCa;
  /** The provider's root as a static anchor (WALLET_PROVIDER_TRUST_ANCHORS), no listed providers. */
  let anchors: Trust;
  let signer: webcrypto.CryptoKeyPair;
  let instanceJwk: Record<string, unknown>;
  beforeAll(async () => {
    ca = await makeTestCa('Provider');
    anchors = { anchors: [parseCertificate(der(ca.root), 'root')], listed: [] };
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
  it('trusts a root a trust source lists as wallet_provider, without static anchors, and no other service type', async () => {
    const listedAs = (serviceType: 'wallet_provider' | 'pid_provider') =>
      trustOf([], [{ certificate: der(ca.root), source: 'source-1', entity: 'Provider', serviceType }]);
    const chain = [der(await leaf()), der(ca.intermediate)];
    expect(await verifyClientAttestation(await attest(chain), listedAs('wallet_provider'))).toMatchObject({
      sub: 'https://wallet.example/app',
    });
    // HAIP holds for a listed root as for an anchor: it must not be in x5c.
    await expect(
      verifyClientAttestation(await attest([...chain, der(ca.root)]), listedAs('wallet_provider')),
    ).rejects.toMatchObject({
      error: 'invalid_client',
      description: expect.stringMatching(/trust anchor itself/),
    });
    await expect(
      verifyClientAttestation(await attest(chain), listedAs('pid_provider')),
    ).rejects.toMatchObject({
      error: 'invalid_client',
      description:
        'this issuer trusts no wallet provider yet (WALLET_PROVIDER_TRUST_ANCHORS or a wallet_provider trust source)',
    });
    const other = await makeTestCa('Other Provider');
    const stranger = trustOf(
      [],
      [{ certificate: der(other.root), source: 'source-2', entity: 'Other', serviceType: 'wallet_provider' }],
    );
    // Listed, but as pid_provider and beside another wallet provider: untrusted as a wallet provider.
    const both: Trust = { anchors: [], listed: [...listedAs('pid_provider').listed, ...stranger.listed] };
    await expect(verifyClientAttestation(await attest(chain), both)).rejects.toMatchObject({
      error: 'invalid_client',
      description: 'the client attestation is not issued by a trusted wallet provider',
    });
  });
});
