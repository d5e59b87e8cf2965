import { DomainError, validationError } from '../domain-errors.js';
import { type CertificateNames, issuerNamed, sameIp } from './certificate-names.js';
import type { KeyPurpose } from './signing-key.entity.js';
import { base64Der, spkiOf, subjectAltNames, x509 } from './x509-support.js';

const MAX_CERTIFICATES = 10;

const refuse = (message: string) => validationError([{ field: 'certificate_chain', message }]);

function parsePem(pem: string): x509.X509Certificate[] {
  let blocks: ReturnType<typeof x509.PemConverter.decodeWithHeaders>;
  try {
    blocks = x509.PemConverter.decodeWithHeaders(pem);
  } catch {
    throw refuse('not PEM: expected one or more -----BEGIN CERTIFICATE----- blocks');
  }
  if (blocks.length === 0) throw refuse('no -----BEGIN CERTIFICATE----- block');
  if (blocks.length > MAX_CERTIFICATES) throw refuse(`more than ${MAX_CERTIFICATES} certificates`);
  return blocks.map((b, i) => {
    if (b.type !== 'CERTIFICATE') throw refuse(`block ${i} is a ${b.type}, not a CERTIFICATE`);
    try {
      return new x509.X509Certificate(b.rawData);
    } catch {
      throw refuse(`certificate ${i} is not a DER X.509 certificate`);
    }
  });
}

/**
 * Checks the PEM chain a CA returned for one of our keys and returns it as `x5c` entries, leaf first
 * and the trust anchor left out (HAIP: the anchor MUST NOT be in `x5c`; a trailing self-signed
 * root is verified against, then dropped). Refused with a 400 naming the reason: a leaf for another
 * key or self-signed, a certificate outside its validity, a link not signed by the next one, an
 * intermediate that is no CA, a leaf that may not sign, or a leaf without the names its purpose
 * needs (the issuer's `iss`, the verifier's `x509_san_dns` host).
 */
export async function checkImportedChain(
  pem: string,
  keySpki: Buffer,
  purpose: KeyPurpose,
  expected: CertificateNames,
  now = new Date(),
): Promise<string[]> {
  try {
    return await checkChain(parsePem(pem), keySpki, purpose, expected, now);
  } catch (e) {
    // A certificate the library cannot process (an algorithm WebCrypto lacks, a broken extension)
    // is the request's fault, not ours.
    if (e instanceof DomainError) throw e;
    throw refuse(`the chain cannot be checked: ${(e as Error).message}`);
  }
}

async function checkChain(
  certs: x509.X509Certificate[],
  keySpki: Buffer,
  purpose: KeyPurpose,
  expected: CertificateNames,
  now: Date,
): Promise<string[]> {
  const leaf = certs[0] as x509.X509Certificate;
  if (await leaf.isSelfSigned()) throw refuse('the leaf certificate is self-signed; a CA must issue it');
  if (!spkiOf(leaf).equals(keySpki)) throw refuse('the leaf certificate is not for this key’s public key');
  for (const [i, cert] of certs.entries()) {
    if (cert.notAfter < now)
      throw refuse(`certificate ${i} (${cert.subject}) expired at ${cert.notAfter.toISOString()}`);
    if (cert.notBefore > now)
      throw refuse(`certificate ${i} (${cert.subject}) is not valid before ${cert.notBefore.toISOString()}`);
    const issuer = certs[i + 1];
    if (!issuer) continue;
    const signed =
      cert.issuer === issuer.subject &&
      (await cert.verify({ publicKey: issuer.publicKey, signatureOnly: true }));
    if (!signed) throw refuse(`certificate ${i} (${cert.subject}) is not issued by certificate ${i + 1}`);
    if (!issuer.getExtension(x509.BasicConstraintsExtension)?.ca)
      throw refuse(`certificate ${i + 1} (${issuer.subject}) is not a CA certificate`);
  }
  const usage = leaf.getExtension(x509.KeyUsagesExtension);
  if (usage && !(usage.usages & x509.KeyUsageFlags.digitalSignature))
    throw refuse('the leaf certificate’s key usage does not allow digital signatures');
  checkNames(leaf, purpose, expected);
  const top = certs[certs.length - 1] as x509.X509Certificate;
  const anchored = certs.length > 1 && (await top.isSelfSigned());
  return (anchored ? certs.slice(0, -1) : certs).map(base64Der);
}

function checkNames(leaf: x509.X509Certificate, purpose: KeyPurpose, expected: CertificateNames) {
  const { dns, ip, uri } = subjectAltNames(leaf);
  // The service's host: a DNS name, or an IP literal, which only an iPAddress SAN can name.
  const [address] = expected.ipAddresses;
  const host = address ? `${address} (IP address)` : `${expected.dnsNames[0]} (DNS)`;
  const namesHost = address
    ? ip.some((a) => sameIp(a, address))
    : dns.includes(expected.dnsNames[0] as string);
  if (issuerNamed(purpose) && !namesHost && !uri.some((u) => expected.uris.includes(u)))
    throw refuse(
      `the leaf certificate names neither ${expected.uris.join(', ')} (URI) nor ${host} as subject alternative name`,
    );
  if (purpose === 'verifier' && !namesHost)
    throw refuse(
      `the leaf certificate does not name ${host} as subject alternative name${address ? '' : ' (x509_san_dns needs it)'}`,
    );
}
