import {
  type CertificateNames,
  certificateNamesFor,
  type ServiceNames,
  sameNames,
} from './certificate-names.js';
import { checkImportedChain } from './check-imported-chain.js';
import { type DevelopmentCa, LEAF_RENEWAL_MS } from './development-ca.js';
import type { KeyPurpose, SigningKey } from './signing-key.entity.js';
import { certificateOf, publicKeyOfJwk, subjectAltNames } from './x509-support.js';

export const DEVELOPMENT_CERTIFICATES_WARNING =
  'development certificates in use: these keys have leaf certificates of this deployment’s own ' +
  'development CA, which no one trusts unless given its root (GET /admin/v1/keys/development-ca). ' +
  'Import CA-issued chains: npm run cli -- keys csr <purpose>, then keys import-chain <kid> <file>';

type KeyRow = Pick<
  SigningKey,
  'kid' | 'purpose' | 'publicJwk' | 'certificate' | 'certificateChain' | 'certificateSource'
>;

/**
 * Which certificate chain each signing key carries: the one an operator imported, or else a leaf
 * of the development CA named after the service's addresses. Works on rows inside the caller's
 * transaction; the key ring picks the result up on its next reload.
 */
export class KeyCertificates {
  constructor(
    readonly ca: DevelopmentCa,
    readonly names: ServiceNames,
    /** False when the names are only defaults (a store built without config must not rename leaves). */
    readonly namesConfigured = true,
  ) {}

  namesFor(purpose: KeyPurpose): CertificateNames {
    return certificateNamesFor(purpose, this.names);
  }

  /** The certificate columns of a key whose chain is a fresh leaf of the development CA. */
  async developmentChain(purpose: KeyPurpose, publicJwk: Record<string, string>) {
    const leaf = await this.ca.issueLeaf(publicKeyOfJwk(publicJwk), this.namesFor(purpose));
    return { certificate: leaf, certificateChain: [leaf], certificateSource: 'development' as const };
  }

  async giveDevelopmentChain(row: KeyRow): Promise<void> {
    Object.assign(row, await this.developmentChain(row.purpose, row.publicJwk));
  }

  /**
   * True for a key whose development leaf must be (re)issued at start: a row from before chains
   * (self-signed), a leaf of another CA, one whose names no longer match ISSUER_URL/VERIFIER_URL, or
   * one within 30 days of its end. An imported chain is the operator's and is never replaced.
   */
  async needsDevelopmentChain(row: KeyRow, now = Date.now()): Promise<boolean> {
    if (row.certificateSource === 'imported') return false;
    const leaf = row.certificateSource === 'development' ? row.certificateChain?.[0] : undefined;
    if (!leaf || !(await this.ca.issued(leaf))) return true;
    const cert = certificateOf(leaf);
    if (cert.notAfter.getTime() - now < LEAF_RENEWAL_MS) return true;
    return this.namesConfigured && !sameNames(subjectAltNames(cert), this.namesFor(row.purpose));
  }

  /** Gives each row that needs one a fresh development chain; true when any row changed. */
  async renewDevelopmentChains(rows: KeyRow[]): Promise<boolean> {
    let changed = false;
    for (const row of rows)
      if (await this.needsDevelopmentChain(row)) {
        await this.giveDevelopmentChain(row);
        changed = true;
      }
    return changed;
  }

  /** Checks a CA's PEM chain for the key (a 400 problem when it does not fit) and makes it the key's. */
  async importChain(row: KeyRow, pem: string): Promise<void> {
    const spki = publicKeyOfJwk(row.publicJwk).export({ format: 'der', type: 'spki' });
    const chain = await checkImportedChain(pem, spki, row.purpose, this.namesFor(row.purpose));
    row.certificate = chain[0] as string;
    row.certificateChain = chain;
    row.certificateSource = 'imported';
  }
}
