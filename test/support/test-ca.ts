import { webcrypto } from 'node:crypto';
import { x509 } from './x5c-validation.js';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;
const generate = () =>
  webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]) as Promise<webcrypto.CryptoKeyPair>;

export interface TestCa {
  root: x509.X509Certificate;
  intermediate: x509.X509Certificate;
  /** A leaf for the CSR's key and names, issued by the intermediate. */
  issue(csrPem: string, validity?: { notBefore?: Date; notAfter?: Date }): Promise<x509.X509Certificate>;
  issueKey(
    publicKey: x509.PublicKeyType,
    options?: {
      subject?: string;
      san?: x509.SubjectAlternativeNameExtension;
      keyUsage?: x509.KeyUsageFlags;
      notBefore?: Date;
      notAfter?: Date;
    },
  ): Promise<x509.X509Certificate>;
  /** A chain as a CA returns it: leaf, intermediate, root, in PEM. */
  pemChain(leaf: x509.X509Certificate): string;
}

/** A root and an intermediate CA made in the test, as an operator's CA would be. */
export async function makeTestCa(name = 'Test'): Promise<TestCa> {
  const rootKeys = await generate();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name} Root CA`,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: ALG,
    keys: rootKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  });
  const intermediateKeys = await generate();
  const intermediate = await x509.X509CertificateGenerator.create({
    subject: `CN=${name} Issuing CA`,
    issuer: root.subject,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: ALG,
    publicKey: intermediateKeys.publicKey,
    signingKey: rootKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  });
  /** A leaf for any public key, as the CA's policy (here: the caller) decides. */
  const issueKey: TestCa['issueKey'] = (publicKey, o = {}) =>
    x509.X509CertificateGenerator.create({
      subject: o.subject ?? 'CN=leaf',
      issuer: intermediate.subject,
      notBefore: o.notBefore ?? new Date(Date.now() - 60_000),
      notAfter: o.notAfter ?? new Date(Date.now() + 90 * DAY),
      signingAlgorithm: ALG,
      publicKey,
      signingKey: intermediateKeys.privateKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(o.keyUsage ?? x509.KeyUsageFlags.digitalSignature, true),
        ...(o.san ? [o.san] : []),
      ],
    });
  return {
    root,
    intermediate,
    issueKey,
    async issue(csrPem, validity = {}) {
      const csr = new x509.Pkcs10CertificateRequest(csrPem);
      if (!(await csr.verify())) throw new Error('the CSR signature does not verify');
      const requested = csr.getExtension('2.5.29.17'); // subjectAltName
      const san = requested ? new x509.SubjectAlternativeNameExtension(requested.rawData) : undefined;
      return issueKey(csr.publicKey, { ...validity, subject: csr.subject, ...(san ? { san } : {}) });
    },
    pemChain: (leaf) => [leaf, intermediate, root].map((c) => c.toString('pem')).join('\n'),
  };
}
