import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { calculateJwkThumbprint } from 'jose';
import type { Orm } from '../persistence/orm.js';
import type { CertificateNames } from './certificate-names.js';
import type { KeyEncryption } from './key-encryption.js';
import {
  base64Der,
  certificateOf,
  ES256_CERTIFICATE,
  signingKeyOf,
  verifyingKeyOf,
  x509,
} from './x509-support.js';

const DAY_MS = 86_400_000;
const ROOT_DAYS = 10 * 365;
const LEAF_DAYS = 2 * 365;

/**
 * The deployment's development certificate authority: one self-signed root, made at first start
 * with its key sealed like the signing keys (table `development_ca`), which issues a leaf
 * certificate to every signing key that has no chain imported by an operator. Nobody trusts it
 * unless told to: tests and verifiers of a development setup download its root from the admin API.
 */
export class DevelopmentCa {
  readonly root: x509.X509Certificate;
  readonly #key: KeyObject;

  private constructor(root: x509.X509Certificate, key: KeyObject) {
    this.root = root;
    this.#key = key;
  }

  /** Loads the CA, or makes it once per deployment (an advisory lock orders concurrent starts). */
  static async loadOrCreate(orm: Orm, encryption: KeyEncryption): Promise<DevelopmentCa> {
    return orm.em.fork().transactional(async (tx: EntityManager) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', ['development-ca']);
      const [row] = await tx.execute<{ id: string; private_key_enc: string; certificate: string }[]>(
        'select id, private_key_enc, certificate from development_ca limit 1',
      );
      if (row) {
        const key = createPrivateKey({
          key: encryption.open(row.private_key_enc, row.id),
          format: 'der',
          type: 'pkcs8',
        });
        return new DevelopmentCa(certificateOf(row.certificate), key);
      }
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const thumbprint = await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as never);
      const id = `development-ca:${thumbprint}`;
      const root = await selfSignedRoot(privateKey, publicKey, thumbprint.slice(0, 8));
      await tx.execute('insert into development_ca (id, private_key_enc, certificate) values (?, ?, ?)', [
        id,
        encryption.seal(privateKey.export({ format: 'der', type: 'pkcs8' }), id),
        base64Der(root),
      ]);
      return new DevelopmentCa(root, privateKey);
    });
  }

  get rootBase64(): string {
    return base64Der(this.root);
  }

  /** A leaf for `publicKey` (base64 DER): not self-signed, for signatures only, named as given. */
  async issueLeaf(publicKey: KeyObject, names: CertificateNames, now = new Date()): Promise<string> {
    const leaf = await x509.X509CertificateGenerator.create({
      subject: names.subject,
      issuer: this.root.subject,
      notBefore: new Date(now.getTime() - 60_000),
      notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
      signingAlgorithm: ES256_CERTIFICATE,
      publicKey: verifyingKeyOf(publicKey),
      signingKey: signingKeyOf(this.#key),
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.SubjectAlternativeNameExtension([
          ...names.dnsNames.map((value) => ({ type: 'dns' as const, value })),
          ...names.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
          ...names.uris.map((value) => ({ type: 'url' as const, value })),
        ]),
        await x509.SubjectKeyIdentifierExtension.create(verifyingKeyOf(publicKey)),
        await x509.AuthorityKeyIdentifierExtension.create(verifyingKeyOf(createPublicKey(this.#key))),
        ...(names.extendedKeyUsages
          ? [new x509.ExtendedKeyUsageExtension(names.extendedKeyUsages, true)]
          : []),
      ],
    });
    return base64Der(leaf);
  }

  /** Whether this CA signed the certificate (a leaf of an earlier CA, or of none, is reissued). */
  async issued(certificateBase64: string): Promise<boolean> {
    const cert = certificateOf(certificateBase64);
    if (cert.issuer !== this.root.subject) return false;
    return cert.verify({ publicKey: this.root.publicKey, signatureOnly: true });
  }
}

/** `tag` tells one deployment's root from another's in a trust store. */
async function selfSignedRoot(privateKey: KeyObject, publicKey: KeyObject, tag: string) {
  const now = Date.now();
  return x509.X509CertificateGenerator.createSelfSigned({
    name: [
      { CN: [`Credential Service development CA ${tag}`] },
      { O: ['Development only: not a trusted CA'] },
    ],
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + ROOT_DAYS * DAY_MS),
    signingAlgorithm: ES256_CERTIFICATE,
    keys: { privateKey: signingKeyOf(privateKey), publicKey: verifyingKeyOf(publicKey) },
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(verifyingKeyOf(publicKey)),
    ],
  });
}

export const LEAF_RENEWAL_MS = 30 * DAY_MS;
