import { createPublicKey, webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificateNamesFor } from '../../server/keys/certificate-names.js';
import { checkImportedChain } from '../../server/keys/check-imported-chain.js';
import type { KeyPurpose } from '../../server/keys/signing-key.entity.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { x509 } from '../support/x5c-validation.js';

/**
 * The rules an imported chain must meet, on chains a CA made here issues: HAIP's (leaf not
 * self-signed, anchor not in x5c) and what the key's purpose needs from the leaf's names.
 */
const names = {
  issuerUrl: 'https://issuer.example',
  verifierUrl: 'https://verifier.example',
  organization: 'T',
};
let ca: TestCa;
let keys: webcrypto.CryptoKeyPair;
let spki: Buffer;

beforeAll(async () => {
  ca = await makeTestCa();
  keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  spki = createPublicKey({
    key: Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey)),
    format: 'der',
    type: 'spki',
  }).export({ format: 'der', type: 'spki' });
});

const san = (dns: string[], uris: string[]) =>
  new x509.SubjectAlternativeNameExtension([
    ...dns.map((value) => ({ type: 'dns' as const, value })),
    ...uris.map((value) => ({ type: 'url' as const, value })),
  ]);
const check = (pem: string, purpose: KeyPurpose = 'issuer') =>
  checkImportedChain(pem, spki, purpose, certificateNamesFor(purpose, names));
const pem = (...certs: x509.X509Certificate[]) => certs.map((c) => c.toString('pem')).join('\n');
const b64 = (c: x509.X509Certificate) => Buffer.from(c.rawData).toString('base64');

describe('checkImportedChain', () => {
  it('returns leaf and intermediate, leaving the root out; without the root, the same', async () => {
    const leaf = await ca.issueKey(keys.publicKey, { san: san([], ['https://issuer.example']) });
    expect(await check(pem(leaf, ca.intermediate, ca.root))).toEqual([b64(leaf), b64(ca.intermediate)]);
    expect(await check(pem(leaf, ca.intermediate))).toEqual([b64(leaf), b64(ca.intermediate)]);
  });

  it('refuses a self-signed certificate of the key itself', async () => {
    const self = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=issuer.example',
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [san(['issuer.example'], [])],
    });
    await expect(check(pem(self))).rejects.toMatchObject({ kind: 'invalid', message: /self-signed/ });
  });

  it('refuses an intermediate that is no CA', async () => {
    const endEntity = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    const notCa = await ca.issueKey(endEntity.publicKey, { subject: 'CN=end entity' });
    const leaf = await x509.X509CertificateGenerator.create({
      subject: 'CN=issuer.example',
      issuer: notCa.subject,
      publicKey: keys.publicKey,
      signingKey: endEntity.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [san(['issuer.example'], [])],
    });
    await expect(check(pem(leaf, notCa, ca.intermediate))).rejects.toMatchObject({
      message: /certificate 1 \(CN=end entity\) is not a CA certificate/,
    });
  });

  it('refuses a leaf that may not sign', async () => {
    const leaf = await ca.issueKey(keys.publicKey, {
      san: san(['issuer.example'], []),
      keyUsage: x509.KeyUsageFlags.keyEncipherment,
    });
    await expect(check(pem(leaf, ca.intermediate))).rejects.toMatchObject({ message: /digital signatures/ });
  });

  it('an issuer leaf must name ISSUER_URL or its host; a verifier leaf must name its host as dNSName', async () => {
    const elsewhere = await ca.issueKey(keys.publicKey, {
      san: san(['other.example'], ['https://other.example']),
    });
    await expect(check(pem(elsewhere, ca.intermediate))).rejects.toMatchObject({
      message: /issuer\.example/,
    });
    const uriOnly = await ca.issueKey(keys.publicKey, { san: san([], ['https://verifier.example']) });
    await expect(check(pem(uriOnly, ca.intermediate), 'verifier')).rejects.toMatchObject({
      message: /x509_san_dns/,
    });
    const dns = await ca.issueKey(keys.publicKey, { san: san(['verifier.example'], []) });
    expect(await check(pem(dns, ca.intermediate), 'verifier')).toHaveLength(2);
    // Keys of other purposes are not named by anyone's policy.
    expect(await check(pem(elsewhere, ca.intermediate), 'audit')).toHaveLength(2);
  });

  it('a service at an IP address is named by an iPAddress SAN, not a dNSName', async () => {
    const at = { issuerUrl: 'http://[::1]:3000', verifierUrl: 'http://[::1]:3000', organization: 'T' };
    const checkAt = (leaf: x509.X509Certificate, purpose: KeyPurpose) =>
      checkImportedChain(pem(leaf, ca.intermediate), spki, purpose, certificateNamesFor(purpose, at));
    const ip = await ca.issueKey(keys.publicKey, {
      san: new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '0:0:0:0:0:0:0:1' }]),
    });
    expect(await checkAt(ip, 'verifier')).toHaveLength(2);
    expect(await checkAt(ip, 'issuer')).toHaveLength(2);
    const dnsOnly = await ca.issueKey(keys.publicKey, { san: san(['::1'], []) });
    await expect(checkAt(dnsOnly, 'verifier')).rejects.toMatchObject({
      message:
        'certificate_chain: the leaf certificate does not name ::1 (IP address) as subject alternative name',
    });
  });
});
