import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { issueDirectCredential } from '../support/fixtures.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { decodeHeader, sansOf, validateX5c, x5cVerifier, x509 } from '../support/x5c-validation.js';

/**
 * An operator's CA certifies the issuer key: CSR from the admin API, a chain from a CA made here,
 * imported, and carried by the next credential. Chains that do not fit the key are a 400
 * problem+json that changes nothing.
 */
let f: TenantFixture;
let integrator: ReturnType<typeof createIntegratorClient>;
let ca: TestCa;

beforeAll(async () => {
  f = await startTenantFixture();
  integrator = f.integrator;
  ca = await makeTestCa('Operator');
});
afterAll(() => f.stop());

const base64 = (c: x509.X509Certificate) => Buffer.from(c.rawData).toString('base64');

async function csrFor(purpose: 'issuer' | 'verifier' = 'issuer', body = {}) {
  const res = await f.t.admin.createCertificateSigningRequest({ params: { purpose }, body });
  if (res.status !== 200) throw new Error(`csr: ${res.status}`);
  return res.body;
}

async function importChain(kid: string, pem: string) {
  const res = await fetch(`${f.t.baseUrl}/admin/v1/keys/${kid}/certificate-chain`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${f.t.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ certificate_chain: pem }),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as never };
}

const issuedCredential = () => issueDirectCredential(integrator);

describe('certificate signing request and chain import', () => {
  it('a CSR for the active issuer key, named after ISSUER_URL, signed with the key', async () => {
    const issuerUrl = f.t.service.context.config.issuerUrl;
    const body = await csrFor();
    expect(body.kid).toBe(await f.t.service.context.signer.activeKid('issuer'));
    const csr = new x509.Pkcs10CertificateRequest(body.csr);
    expect(await csr.verify()).toBe(true);
    const jwk = await webcrypto.subtle.exportKey('jwk', await csr.publicKey.export());
    const published = (await f.t.service.context.signer.publicJwks('issuer')).find((k) => k.kid === body.kid);
    expect({ x: jwk.x, y: jwk.y }).toEqual({ x: published?.x, y: published?.y });
    // The test service is at 127.0.0.1: named by an iPAddress SAN, no dNSName.
    expect(body).toMatchObject({ uris: [issuerUrl], dns_names: [], ip_addresses: ['127.0.0.1'] });
    const custom = await csrFor('issuer', {
      subject: 'CN=issuer.acme.test, O=ACME',
      dns_names: ['issuer.acme.test'],
    });
    expect(new x509.Pkcs10CertificateRequest(custom.csr).subject).toBe('CN=issuer.acme.test, O=ACME');
  });

  it('imports the chain the CA returned; the next credential carries it, without the root', async () => {
    const { kid, csr } = await csrFor();
    const leaf = await ca.issue(csr);
    const imported = await importChain(kid, ca.pemChain(leaf));
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      kid,
      certificate_source: 'imported',
      certificate_chain: [base64(leaf), base64(ca.intermediate)],
    });
    const credential = await issuedCredential();
    const header = decodeHeader(credential);
    expect(header).toMatchObject({ kid, x5c: [base64(leaf), base64(ca.intermediate)] });
    const verifiedLeaf = await validateX5c(header.x5c, base64(ca.root));
    expect(sansOf(verifiedLeaf).uri).toEqual([f.t.service.context.config.issuerUrl]);
    const [h, p, s] = (credential.split('~')[0] ?? '').split('.') as [string, string, string];
    expect(await x5cVerifier(base64(ca.root))(`${h}.${p}`, s)).toBe(true);
  });

  it('a bad request for a CSR is a 400 problem', async () => {
    const res = await f.t.admin.createCertificateSigningRequest({
      params: { purpose: 'issuer' },
      body: { subject: 'this is not a name' },
    });
    expect(res).toMatchObject({ status: 400, body: { type: 'urn:credservice:problem:validation-error' } });
  });
});

describe('chains that do not fit are refused with a 400 problem+json, changing nothing', () => {
  const DAY = 86_400_000;

  it.each([
    [
      'a leaf for another key',
      async () => ca.pemChain(await ca.issue((await csrFor('verifier')).csr)),
      /not for this key/,
    ],
    [
      'an expired leaf',
      async () =>
        ca.pemChain(
          await ca.issue((await csrFor()).csr, {
            notBefore: new Date(Date.now() - 30 * DAY),
            notAfter: new Date(Date.now() - DAY),
          }),
        ),
      /expired/,
    ],
    [
      'a chain whose links do not match',
      async () => {
        const other = await makeTestCa('Other');
        const leaf = await other.issue((await csrFor()).csr);
        return [leaf, ca.intermediate, ca.root].map((c) => c.toString('pem')).join('\n');
      },
      /not issued by certificate 1/,
    ],
    ['no PEM at all', async () => 'hello', /CERTIFICATE/],
  ])('%s', async (_what, chain, reason) => {
    const kid = await f.t.service.context.signer.activeKid('issuer');
    const before = decodeHeader(await issuedCredential()).x5c;
    const res = await importChain(kid, await chain());
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body)).toMatch(reason);
    expect(decodeHeader(await issuedCredential()).x5c).toEqual(before);
  });

  it('a self-signed leaf', async () => {
    const { kid } = await csrFor();
    const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    const self = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=self',
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    });
    const res = await importChain(kid, self.toString('pem'));
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body)).toMatch(/self-signed/);
  });

  it('an unknown kid is a 404 problem', async () => {
    const res = await importChain('no-such-kid', ca.root.toString('pem'));
    expect(res.status).toBe(404);
    expect(res.type).toMatch(/^application\/problem\+json/);
  });
});
