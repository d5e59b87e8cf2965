import { webcrypto } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { createHeaderAndPayload, StatusList } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { CompactSign, type JWK } from 'jose';

/**
 * An issuer PKI made in the test with @peculiar/x509 (root → intermediate → leaf), credentials
 * signed under it with @sd-jwt/sd-jwt-vc and Status List Tokens with @sd-jwt/jwt-status-list and
 * jose: none of the service's own code, so the verifier's chain checks are tested against what a
 * third-party issuer and CA make.
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };

const DAY = 86_400_000;
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const Usage = x509.KeyUsageFlags;

export interface Node {
  cert: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
  /** Standard base64 DER, an `x5c` entry. */
  base64: string;
  pem: string;
}

export interface CertificateOptions {
  subject: string;
  /** The CA that signs it; none: self-signed. */
  issuer?: Node;
  /** basicConstraints cA; 'omit' leaves the extension out. */
  ca?: boolean | 'omit';
  pathLength?: number;
  keyUsage?: x509.KeyUsageFlags;
  dns?: string[];
  uris?: string[];
  notBefore?: Date;
  notAfter?: Date;
  /** Validity is around this time unless given. */
  at?: Date;
  /** The curve of the certificate's own key (its issuer's key signs it). Default P-256. */
  curve?: 'P-256' | 'P-384';
}

const newKeys = (namedCurve = 'P-256') =>
  webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve }, true, [
    'sign',
    'verify',
  ]) as Promise<webcrypto.CryptoKeyPair>;

/** A certificate with subject and authority key identifiers, as CAs make them. */
export async function certificate(o: CertificateOptions): Promise<Node> {
  const keys = await newKeys(o.curve);
  const at = (o.at ?? new Date()).getTime();
  const ca = o.ca ?? false;
  const names = [
    ...(o.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(o.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const extensions: x509.Extension[] = [
    ...(ca === 'omit' ? [] : [new x509.BasicConstraintsExtension(ca, o.pathLength, true)]),
    new x509.KeyUsagesExtension(
      o.keyUsage ?? (ca === true ? Usage.keyCertSign : Usage.digitalSignature),
      true,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create((o.issuer?.keys ?? keys).publicKey),
    ...(names.length ? [new x509.SubjectAlternativeNameExtension(names)] : []),
  ];
  const validity = {
    notBefore: o.notBefore ?? new Date(at - 30 * DAY),
    notAfter: o.notAfter ?? new Date(at + 365 * DAY),
  };
  const cert = o.issuer
    ? await x509.X509CertificateGenerator.create({
        subject: o.subject,
        issuer: o.issuer.cert.subject,
        ...validity,
        signingAlgorithm: ALG,
        publicKey: keys.publicKey,
        signingKey: o.issuer.keys.privateKey,
        extensions,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        name: o.subject,
        ...validity,
        signingAlgorithm: ALG,
        keys,
        extensions,
      });
  return { cert, keys, base64: Buffer.from(cert.rawData).toString('base64'), pem: cert.toString('pem') };
}

export interface IssuerPki {
  root: Node;
  intermediate: Node;
  leaf: Node;
}

/** root → intermediate → leaf naming `host` (dNSName), valid around `at`. */
export async function issuerPki(host: string, name: string, at?: Date): Promise<IssuerPki> {
  const root = await certificate({ subject: `CN=${name} Root CA`, ca: true, pathLength: 1, at });
  const intermediate = await certificate({
    subject: `CN=${name} Issuing CA`,
    issuer: root,
    ca: true,
    pathLength: 0,
    at,
  });
  const leaf = await certificate({ subject: `CN=${host}`, issuer: intermediate, dns: [host], at });
  return { root, intermediate, leaf };
}

/** The base64 DER of `node` with its signature's last byte changed: it parses, it does not verify. */
export function brokenSignature(node: Node): string {
  const der = Buffer.from(node.cert.rawData);
  der[der.length - 1] = (der[der.length - 1] as number) ^ 0x01;
  return der.toString('base64');
}

/** The AKI/SKI value as DCQL trusted_authorities carries it (base64url). */
export const keyIdOf = (node: Node) =>
  Buffer.from(node.cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? '', 'hex').toString(
    'base64url',
  );

const privateJwk = async (node: Node) =>
  (await webcrypto.subtle.exportKey('jwk', node.keys.privateKey)) as JWK;

export interface X509CredentialOptions {
  signer: Node;
  x5c: string[];
  payload: Record<string, unknown>;
  disclosable: string[];
}

/** An SD-JWT VC signed with `signer`'s key, `x5c` in its header (none when empty), by @sd-jwt/sd-jwt-vc. */
export async function issueWithX5c(o: X509CredentialOptions): Promise<string> {
  const instance = new SDJwtVcInstance({
    signer: await ES256.getSigner(await privateJwk(o.signer)),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
  return instance.issue(o.payload as never, { _sd: o.disclosable } as never, {
    header: { typ: 'dc+sd-jwt', ...(o.x5c.length ? { x5c: o.x5c } : {}) },
  });
}

/** A statuslist+jwt for `uri` (2 bits per entry) signed by `signer` with `x5c`, by @sd-jwt/jwt-status-list. */
export async function statusListWithX5c(o: {
  signer: Node;
  x5c?: string[];
  uri: string;
  iat: number;
  statuses: Record<number, number>;
}): Promise<string> {
  const entries = new Array<number>(1024).fill(0);
  for (const [idx, value] of Object.entries(o.statuses)) entries[Number(idx)] = value;
  const { header, payload } = createHeaderAndPayload(
    new StatusList(entries, 2),
    { sub: o.uri, iat: o.iat, ttl: 60 } as never,
    { alg: 'ES256', typ: 'statuslist+jwt', ...(o.x5c ? { x5c: o.x5c } : {}) },
  );
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader(header as { alg: string })
    .sign(o.signer.keys.privateKey);
}
