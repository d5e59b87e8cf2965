import { generateKeyPairSync, sign } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import type { Logger } from 'pino';
import { invalidate, nodeCachesOf } from '../cache/node-caches.js';
import type { Orm } from '../persistence/orm.js';
import { type CertificateNames, DEFAULT_SERVICE_NAMES, type ServiceNames } from './certificate-names.js';
import { certificateSigningRequest } from './certificate-signing-request.js';
import { DevelopmentCa } from './development-ca.js';
import { ecJwkThumbprint, signEs256 } from './es256-jws.js';
import { importCertificateChain } from './import-certificate-chain.js';
import { DEVELOPMENT_CERTIFICATES_WARNING, KeyCertificates } from './key-certificates.js';
import type { KeyEncryption } from './key-encryption.js';
import { KeyRing, type RingKey } from './key-ring.js';
import type { Signer, SignJwtOptions } from './signer.js';
import { KEY_PURPOSES, type KeyPurpose, SigningKey } from './signing-key.entity.js';
import { KEYS_CHANGED, lockPurpose } from './signing-key-table.js';

const REFRESH_MS = 30_000;

export interface LocalKeyStoreOptions {
  /** The addresses the keys' certificates are named after (ISSUER_URL, VERIFIER_URL, ISSUER_NAME). */
  names?: ServiceNames;
  /** Told once at start when development certificates are in use. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Local ES256 keys: generated on first start, kept in `signing_key` encrypted, each with an X.509
 * chain (imported by an operator, else a leaf of the deployment's development CA), and served from
 * an in-memory KeyRing. The ring is reloaded at once when any node adds, rotates or re-certifies a
 * key (NOTIFY at its commit, see server/cache) and every 30 s as a safety net, so no request ever
 * reads the table.
 */
export class LocalKeyStore implements Signer {
  readonly #orm: Orm;
  readonly #encryption: KeyEncryption;
  readonly #options: LocalKeyStoreOptions;
  #certificates: KeyCertificates | undefined;
  #ring = KeyRing.empty();
  #timer: NodeJS.Timeout | undefined;
  /** Reloads may overlap (timer, notification); only one started later than the applied one wins. */
  #reloadsStarted = 0;
  #reloadApplied = 0;

  constructor(orm: Orm, encryption: KeyEncryption, options: LocalKeyStoreOptions = {}) {
    this.#orm = orm;
    this.#encryption = encryption;
    this.#options = options;
  }

  /** Every purpose gets an active key and every current key a chain; loads the ring, keeps it fresh. */
  async ensureKeys(): Promise<void> {
    const certificates = await this.#keyCertificates();
    for (const purpose of KEY_PURPOSES) {
      await this.#orm.em.fork().transactional(async (tx) => {
        await lockPurpose(tx, purpose);
        if (!(await tx.findOne(SigningKey, { purpose, status: 'active' }))) await this.#generate(tx, purpose);
        const current = await tx.find(SigningKey, { purpose, status: { $ne: 'retired' } });
        if (await certificates.renewDevelopmentChains(current)) await invalidate(tx, KEYS_CHANGED);
      });
    }
    await this.refresh();
    const development = KEY_PURPOSES.filter((p) => this.#ring.active(p)?.certificateSource === 'development');
    if (development.length && !this.#timer)
      this.#options.logger?.warn(
        { purposes: development, root: certificates.ca.root.subject },
        DEVELOPMENT_CERTIFICATES_WARNING,
      );
    if (!this.#timer)
      nodeCachesOf(this.#orm)?.watch(KEYS_CHANGED, () => void this.refresh().catch(() => undefined));
    this.#timer ??= setInterval(() => this.refresh().catch(() => undefined), REFRESH_MS).unref();
  }

  /** Reloads the ring from the table (outside any request's transaction). */
  async refresh(): Promise<void> {
    const started = ++this.#reloadsStarted;
    const rows = await this.#orm.em.fork().find(SigningKey, { status: { $ne: 'retired' } });
    if (started < this.#reloadApplied) return;
    this.#reloadApplied = started;
    this.#ring = KeyRing.from(rows, this.#encryption, this.#ring);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** A new active key for the purpose, with its development leaf; the one it replaces stays published as retiring. */
  async rotate(purpose: KeyPurpose): Promise<SigningKey> {
    const key = await this.#orm.em.fork().transactional(async (tx) => {
      await lockPurpose(tx, purpose);
      await tx.nativeUpdate(SigningKey, { purpose, status: 'active' }, { status: 'retiring' });
      return this.#generate(tx, purpose);
    });
    await this.refresh();
    return key;
  }

  async list(): Promise<SigningKey[]> {
    return this.#orm.em.fork().find(SigningKey, {}, { orderBy: { purpose: 'asc', createdAt: 'desc' } });
  }

  /** The development CA's root (base64 DER), for whoever should trust development certificates. */
  async developmentRoot(): Promise<string> {
    return (await this.#keyCertificates()).ca.rootBase64;
  }

  /** A PEM PKCS#10 request for the purpose's active key, named from the service's addresses unless given. */
  async certificateSigningRequest(purpose: KeyPurpose, names: Partial<CertificateNames> = {}) {
    const key = this.#active(purpose);
    const chosen = { ...(await this.#keyCertificates()).namesFor(purpose), ...names };
    const csr = await certificateSigningRequest(key.privateKey, key.publicJwk as never, chosen);
    return { kid: key.kid, purpose, names: chosen, csr };
  }

  /** Makes a CA's PEM chain the key's `x5c` from now on, on every node (a 400 when it does not fit). */
  async importCertificateChain(kid: string, pem: string): Promise<SigningKey> {
    const row = await importCertificateChain(this.#orm, await this.#keyCertificates(), kid, pem);
    await this.refresh();
    return row;
  }

  #active(purpose: KeyPurpose): RingKey {
    const key = this.#ring.active(purpose);
    if (!key) throw new Error(`no active ${purpose} key: ensureKeys() was not run`);
    return key;
  }

  async activeKid(purpose: KeyPurpose): Promise<string> {
    return this.#active(purpose).kid;
  }

  async certificateChain(purpose: KeyPurpose, kid?: string): Promise<string[]> {
    const key = kid ? this.#ring.get(kid, purpose) : this.#active(purpose);
    if (!key?.chain.length) throw new Error(`the ${purpose} key ${kid ?? ''} has no certificate chain`);
    return key.chain;
  }

  async publicJwks(purpose: KeyPurpose): Promise<JWK[]> {
    return this.#ring
      .published(purpose)
      .map((k) => ({ ...k.publicJwk, kid: k.kid, alg: 'ES256', use: 'sig' }));
  }

  async sign(purpose: KeyPurpose, data: Uint8Array, pinned?: string) {
    const key = pinned ? this.#ring.get(pinned, purpose) : this.#active(purpose);
    if (!key) throw new Error(`no current ${purpose} key ${pinned}`);
    const signature = sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    return { kid: key.kid, signature: new Uint8Array(signature) };
  }

  async signJwt(
    purpose: KeyPurpose,
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    options: SignJwtOptions = {},
  ) {
    const { kid, privateKey, chain } = this.#active(purpose);
    // The chain comes from the same ring entry as the key, so a rotation cannot split them.
    if (options.x5c && !chain.length) throw new Error(`the active ${purpose} key has no certificate chain`);
    return signEs256(
      privateKey,
      { ...header, alg: 'ES256', kid, ...(options.x5c ? { x5c: chain } : {}) },
      payload,
    );
  }

  async #keyCertificates(): Promise<KeyCertificates> {
    this.#certificates ??= new KeyCertificates(
      await DevelopmentCa.loadOrCreate(this.#orm, this.#encryption),
      this.#options.names ?? DEFAULT_SERVICE_NAMES,
      this.#options.names !== undefined,
    );
    return this.#certificates;
  }

  async #generate(tx: EntityManager, purpose: KeyPurpose): Promise<SigningKey> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as Record<string, string>;
    const publicJwk = { kty: kty as string, crv: crv as string, x: x as string, y: y as string };
    const kid = ecJwkThumbprint(publicJwk);
    const chain = await (await this.#keyCertificates()).developmentChain(purpose, publicJwk);
    const row = tx.create(SigningKey, {
      ...chain,
      kid,
      purpose,
      publicJwk,
      alg: 'ES256',
      privateKeyEnc: this.#encryption.seal(privateKey.export({ format: 'der', type: 'pkcs8' }), kid),
      status: 'active',
      retiredAt: null,
    });
    await tx.flush();
    await invalidate(tx, KEYS_CHANGED);
    return row;
  }
}
