import { createPublicKey, type KeyObject } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../persistence/orm.js';
import type { CertificateNames } from './certificate-names.js';
import { ecJwkThumbprint } from './es256-jws.js';
import type { Es256Sign, KeyMaterial, KeyVaults, TokenKey } from './key-vault.js';
import { vaultOf } from './vault-of.js';
import { remoteSigning } from './x509-remote-signing.js';
import {
  base64Der,
  certificateOf,
  ES256_CERTIFICATE,
  publicKeyOfJwk,
  spkiOf,
  verifyingKeyOf,
  x509,
} from './x509-support.js';

const DAY_MS = 86_400_000;
const ROOT_DAYS = 10 * 365;
const LEAF_DAYS = 2 * 365;

interface CaRow {
  id: string;
  private_key_enc: string | null;
  token_key: TokenKey | null;
  certificate: string;
}

/**
 * The deployment's development certificate authority: one self-signed root, made at first start,
 * which issues a leaf certificate to every signing key that has no chain imported by an operator.
 * Its key is made in the configured key store like the signing keys (table `development_ca` keeps
 * it sealed, or only the token's reference with KEY_STORE=pkcs11) and signs through it. Nobody
 * trusts it unless told to: tests and verifiers of a development setup download its root from the
 * admin API.
 */
export class DevelopmentCa {
  readonly root: x509.X509Certificate;
  readonly #sign: Es256Sign;

  private constructor(root: x509.X509Certificate, sign: Es256Sign) {
    this.root = root;
    this.#sign = sign;
  }

  /** Loads the CA, or makes it once per deployment (an advisory lock orders concurrent starts). */
  static async loadOrCreate(orm: Orm, vaults: KeyVaults): Promise<DevelopmentCa> {
    return orm.em.fork().transactional(async (tx: EntityManager) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', ['development-ca']);
      const [row] = await tx.execute<CaRow[]>(
        'select id, private_key_enc, token_key, certificate from development_ca limit 1',
      );
      if (row) {
        const material: KeyMaterial = {
          keyStore: row.token_key ? 'pkcs11' : 'local',
          privateKeyEnc: row.private_key_enc,
          tokenKey: row.token_key,
        };
        const root = certificateOf(row.certificate);
        const vault = vaultOf(vaults, material.keyStore, 'the development CA');
        await vault.check(
          row.id,
          material,
          publicKeyOf(root).export({ format: 'jwk' }) as Record<string, string>,
        );
        return new DevelopmentCa(root, vault.signerOf(row.id, material));
      }
      const generated = await vaults.configured.generate('credservice development CA');
      const thumbprint = ecJwkThumbprint(generated.publicJwk);
      const id = `development-ca:${thumbprint}`;
      const material = generated.material(id);
      const sign = vaults.configured.signerOf(id, material);
      const root = await selfSignedRoot(sign, publicKeyOfJwk(generated.publicJwk), thumbprint.slice(0, 8));
      await tx.execute(
        'insert into development_ca (id, private_key_enc, token_key, certificate) values (?, ?, ?, ?)',
        [
          id,
          material.privateKeyEnc,
          material.tokenKey ? JSON.stringify(material.tokenKey) : null,
          base64Der(root),
        ],
      );
      return new DevelopmentCa(root, sign);
    });
  }

  get rootBase64(): string {
    return base64Der(this.root);
  }

  /** A leaf for `publicKey` (base64 DER): not self-signed, for signatures only, named as given. */
  async issueLeaf(publicKey: KeyObject, names: CertificateNames, now = new Date()): Promise<string> {
    const signing = remoteSigning(this.#sign);
    const leaf = await x509.X509CertificateGenerator.create(
      {
        subject: names.subject,
        issuer: this.root.subject,
        notBefore: new Date(now.getTime() - 60_000),
        notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
        signingAlgorithm: ES256_CERTIFICATE,
        publicKey: verifyingKeyOf(publicKey),
        signingKey: signing.key,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.SubjectAlternativeNameExtension([
            ...names.dnsNames.map((value) => ({ type: 'dns' as const, value })),
            ...names.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
            ...names.uris.map((value) => ({ type: 'url' as const, value })),
          ]),
          await x509.SubjectKeyIdentifierExtension.create(verifyingKeyOf(publicKey)),
          await x509.AuthorityKeyIdentifierExtension.create(verifyingKeyOf(publicKeyOf(this.root))),
          ...(names.extendedKeyUsages
            ? [new x509.ExtendedKeyUsageExtension(names.extendedKeyUsages, true)]
            : []),
        ],
      },
      signing.crypto,
    );
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
async function selfSignedRoot(sign: Es256Sign, publicKey: KeyObject, tag: string) {
  const now = Date.now();
  const signing = remoteSigning(sign);
  return x509.X509CertificateGenerator.createSelfSigned(
    {
      name: [
        { CN: [`Credential Service development CA ${tag}`] },
        { O: ['Development only: not a trusted CA'] },
      ],
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + ROOT_DAYS * DAY_MS),
      signingAlgorithm: ES256_CERTIFICATE,
      keys: { privateKey: signing.key, publicKey: await verifyingKeyOf(publicKey) },
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(verifyingKeyOf(publicKey)),
      ],
    },
    signing.crypto,
  );
}

/** A certificate's public key: the CA's, to check its stored key and to name it in a leaf. */
const publicKeyOf = (cert: x509.X509Certificate) =>
  createPublicKey({ key: spkiOf(cert), format: 'der', type: 'spki' });

export const LEAF_RENEWAL_MS = 30 * DAY_MS;
