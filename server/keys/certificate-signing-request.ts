import { validationError } from '../domain-errors.js';
import type { CertificateNames } from './certificate-names.js';
import type { Es256Sign } from './key-vault.js';
import { remoteSigning } from './x509-remote-signing.js';
import { ES256_CERTIFICATE, publicKeyOfJwk, verifyingKeyOf, x509 } from './x509-support.js';

/** A subject the operator typed, checked before it reaches the CSR (a bad one is a 400, not a 500). */
function parsedSubject(subject: string): x509.Name {
  try {
    const name = new x509.Name(subject);
    if (name.toJSON().length === 0) throw new Error('empty');
    return name;
  } catch {
    throw validationError([
      { field: 'subject', message: 'not an RFC 4514 distinguished name such as "CN=issuer.example, O=ACME"' },
    ]);
  }
}

/**
 * A PKCS#10 certificate signing request (RFC 2986) for one of our keys, signed with that key so the
 * CA sees proof of possession (in a token, by the token: `sign` is its C_Sign): the subject and the
 * SANs given, key usage digitalSignature, no CA.
 * Returned as PEM, ready for a CA; the chain it sends back is imported with the certificate-chain
 * route.
 */
export async function certificateSigningRequest(
  sign: Es256Sign,
  publicJwk: Record<string, string>,
  names: CertificateNames,
): Promise<string> {
  const publicKey = publicKeyOfJwk(publicJwk);
  const signing = remoteSigning(sign);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    {
      name: parsedSubject(names.subject),
      keys: { privateKey: signing.key, publicKey: await verifyingKeyOf(publicKey) },
      signingAlgorithm: ES256_CERTIFICATE,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        ...(names.dnsNames.length + names.ipAddresses.length + names.uris.length > 0
          ? [
              new x509.SubjectAlternativeNameExtension([
                ...names.dnsNames.map((value) => ({ type: 'dns' as const, value })),
                ...names.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
                ...names.uris.map((value) => ({ type: 'url' as const, value })),
              ]),
            ]
          : []),
      ],
    },
    signing.crypto,
  );
  return csr.toString('pem');
}
