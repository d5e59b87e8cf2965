import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateNamesFor, sameNames } from '../../server/keys/certificate-names.js';
import { certificateSigningRequest } from '../../server/keys/certificate-signing-request.js';
import { x509 } from '../support/x5c-validation.js';

/**
 * A key's certificate names its service's host as RFC 5280 section 4.2.1.6 says: a DNS name as
 * dNSName, an IP literal (IPv4 or IPv6) as iPAddress and never as dNSName (issue 21, 6b: the
 * development verifier leaf named 127.0.0.1 as a dNSName).
 */
const service = (host: string) => ({
  issuerUrl: `http://${host}:3000`,
  verifierUrl: `http://${host}:3000`,
  organization: 'T',
});

describe('certificate names of a key', () => {
  it.each([
    ['127.0.0.1', [], ['127.0.0.1'], 'CN=127.0.0.1, O=T'],
    ['[::1]', [], ['::1'], 'CN=::1, O=T'],
    ['[2001:DB8:0:0::10]', [], ['2001:db8::10'], 'CN=2001:db8::10, O=T'],
    ['localhost', ['localhost'], [], 'CN=localhost, O=T'],
    ['verifier.example', ['verifier.example'], [], 'CN=verifier.example, O=T'],
  ])('%s: dNSName %j, iPAddress %j', (host, dnsNames, ipAddresses, subject) => {
    for (const purpose of ['issuer', 'verifier'] as const) {
      expect(certificateNamesFor(purpose, service(host))).toEqual({
        subject,
        dnsNames,
        ipAddresses,
        // The URI is the address as configured: the `iss` of credentials, compared as written.
        uris: [`http://${host}:3000`],
      });
    }
  });

  it('puts an IPv6 host into an iPAddress SAN of the signing request, with no dNSName', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const names = certificateNamesFor('verifier', service('[::1]'));
    const pem = await certificateSigningRequest(
      async (data) => sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }),
      publicKey.export({ format: 'jwk' }) as Record<string, string>,
      names,
    );
    const csr = new x509.Pkcs10CertificateRequest(pem);
    const requested = csr.getExtension('2.5.29.17'); // subjectAltName
    const san = new x509.SubjectAlternativeNameExtension(requested?.rawData as ArrayBuffer).names.toJSON();
    expect(san).toEqual([
      { type: 'ip', value: '::1' },
      { type: 'url', value: 'http://[::1]:3000' },
    ]);
  });

  it('compares IP addresses by value, so a leaf is not reissued for another spelling', () => {
    const names = certificateNamesFor('verifier', service('[::1]'));
    expect(sameNames({ dns: [], ip: ['0:0:0:0:0:0:0:1'], uri: names.uris }, names)).toBe(true);
    // A leaf from before the fix, naming the address as dNSName, no longer matches: it is reissued.
    const v4 = certificateNamesFor('verifier', service('127.0.0.1'));
    expect(sameNames({ dns: ['127.0.0.1'], ip: [], uri: v4.uris }, v4)).toBe(false);
  });
});
