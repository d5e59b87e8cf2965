import type { JWK } from 'jose';
import type { Logger } from 'pino';
import { nodeCachesOf } from '../cache/node-caches.js';
import type { Orm } from '../persistence/orm.js';
import { type CertificateNames, DEFAULT_SERVICE_NAMES, type ServiceNames } from './certificate-names.js';
import { certificateSigningRequest } from './certificate-signing-request.js';
import { DevelopmentCa } from './development-ca.js';
import { ensurePurposeKeys, warnAtStart } from './ensure-keys.js';
import { es256SigningInput } from './es256-jws.js';
import { generateSigningKey } from './generate-signing-key.js';
import { importCertificateChain } from './import-certificate-chain.js';
import { KeyCertificates } from './key-certificates.js';
import { listKeyEvents, recordKeyEvent } from './key-events.js';
import { destroySigningKey, retireSigningKey } from './key-retirement.js';
import { KeyRing, type RingKey } from './key-ring.js';
import { type KeyStoreStatus, SigningObservers } from './key-store-status.js';
import type { KeyVaults } from './key-vault.js';
import type { Signer, SignJwtOptions } from './signer.js';
import { KEY_PURPOSES, type KeyPurpose, SigningKey } from './signing-key.entity.js';
import { KEYS_CHANGED, lockPurpose } from './signing-key-table.js';

const REFRESH_MS = 30_000;

export interface KeyStoreOptions {
  /** The addresses the keys' certificates are named after (ISSUER_URL, VERIFIER_URL, ISSUER_NAME). */
  names?: ServiceNames;
  /** Told once at start when development certificates are in use. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * The signing keys of every purpose: generated on first start in the configured vault (sealed in
 * PostgreSQL, or inside a PKCS#11 token), listed in `signing_key` with their public key, state and
 * X.509 chain, and served from an in-memory KeyRing. Only making, signing with and destroying a key
 * is the vault's; rotation, chains and retirement are the same for every vault. The ring is
 * reloaded at once when any node changes a key (NOTIFY at its commit, see server/cache) and every
 * 30 s as a safety net, so no request ever reads the table.
 */
export class KeyStore implements Signer, KeyStoreStatus {
  readonly #orm: Orm;
  readonly #vaults: KeyVaults;
  readonly #options: KeyStoreOptions;
  readonly #observers = new SigningObservers();
  #certificates: KeyCertificates | undefined;
  #ring = KeyRing.empty();
  #timer: NodeJS.Timeout | undefined;
  /** Reloads may overlap (timer, notification); only one started later than the applied one wins. */
  #reloadsStarted = 0;
  #reloadApplied = 0;

  constructor(orm: Orm, vaults: KeyVaults, options: KeyStoreOptions = {}) {
    this.#orm = orm;
    this.#vaults = vaults;
    this.#options = options;
  }

  get kind() {
    return this.#vaults.configured.kind;
  }

  /** Every purpose gets an active key and every current key a chain; loads the ring, keeps it fresh. */
  async ensureKeys(): Promise<void> {
    const certificates = await this.#keyCertificates();
    await ensurePurposeKeys(this.#orm, this.#vaults, certificates);
    await this.refresh();
    if (!this.#timer) {
      warnAtStart(this.#options.logger, this.#ring, this.kind, certificates);
      nodeCachesOf(this.#orm)?.watch(KEYS_CHANGED, () => void this.refresh().catch(() => undefined));
    }
    this.#timer ??= setInterval(() => this.refresh().catch(() => undefined), REFRESH_MS).unref();
  }

  /** Reloads the ring from the table (outside any request's transaction). */
  async refresh(): Promise<void> {
    const started = ++this.#reloadsStarted;
    const rows = await this.#orm.em.fork().find(SigningKey, { status: { $ne: 'retired' } });
    if (started < this.#reloadApplied) return;
    this.#reloadApplied = started;
    this.#ring = KeyRing.from(rows, this.#vaults, this.#ring);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** A new active key for the purpose in the configured vault; the one it replaces stays published as retiring. */
  async rotate(purpose: KeyPurpose, actor = 'admin'): Promise<SigningKey> {
    const key = await this.#rotate(purpose, actor);
    await this.refresh();
    return key;
  }

  /** Rotates every purpose: how a deployment moves its keys from one key store to another. */
  async rotateAll(actor = 'admin'): Promise<SigningKey[]> {
    const keys: SigningKey[] = [];
    for (const purpose of KEY_PURPOSES) keys.push(await this.#rotate(purpose, actor));
    await this.refresh();
    return keys;
  }

  /** The rotation of one purpose in its own transaction, under its lock; the ring is the caller's. */
  async #rotate(purpose: KeyPurpose, actor: string): Promise<SigningKey> {
    const certificates = await this.#keyCertificates();
    return this.#orm.em.fork().transactional(async (tx) => {
      await lockPurpose(tx, purpose);
      const previous = await tx.findOne(SigningKey, { purpose, status: 'active' });
      await tx.nativeUpdate(SigningKey, { purpose, status: 'active' }, { status: 'retiring' });
      const row = await generateSigningKey(tx, this.#vaults.configured, certificates, purpose, actor);
      await recordKeyEvent(tx, {
        kid: row.kid,
        purpose,
        actor,
        action: 'key.rotated',
        details: { key_store: row.keyStore, ...(previous ? { replaces: previous.kid } : {}) },
      });
      return row;
    });
  }

  async retire(kid: string, actor = 'admin'): Promise<SigningKey> {
    const row = await retireSigningKey(this.#orm, kid, actor);
    await this.refresh();
    return row;
  }

  async destroy(kid: string, actor = 'admin'): Promise<SigningKey> {
    return destroySigningKey(this.#orm, this.#vaults, kid, actor);
  }

  events(kid?: string) {
    return listKeyEvents(this.#orm, kid);
  }

  async list(): Promise<SigningKey[]> {
    return this.#orm.em.fork().find(SigningKey, {}, { orderBy: { purpose: 'asc', createdAt: 'desc' } });
  }

  /** The development CA's root (base64 DER), for whoever should trust development certificates. */
  async developmentRoot(): Promise<string> {
    return (await this.#keyCertificates()).ca.rootBase64;
  }

  /** A PEM PKCS#10 request for the purpose's active key, signed by that key where it lives. */
  async certificateSigningRequest(
    purpose: KeyPurpose,
    names: Partial<CertificateNames> = {},
    actor = 'admin',
  ) {
    const key = this.#active(purpose);
    const chosen = { ...(await this.#keyCertificates()).namesFor(purpose), ...names };
    const csr = await certificateSigningRequest(this.#timed(key), key.publicJwk as never, chosen);
    await this.#orm.em.fork().transactional((tx) =>
      recordKeyEvent(tx, {
        kid: key.kid,
        purpose,
        actor,
        action: 'key.csr_created',
        details: { subject: chosen.subject },
      }),
    );
    return { kid: key.kid, purpose, names: chosen, csr };
  }

  /** Makes a CA's PEM chain the key's `x5c` from now on, on every node (a 400 when it does not fit). */
  async importCertificateChain(kid: string, pem: string, actor = 'admin'): Promise<SigningKey> {
    const row = await importCertificateChain(this.#orm, await this.#keyCertificates(), kid, pem, actor);
    await this.refresh();
    return row;
  }

  health() {
    return { keyStore: this.kind, up: this.#vaults.configured.up() };
  }

  onSigned(listener: Parameters<SigningObservers['add']>[0]): void {
    this.#observers.add(listener);
  }

  #active(purpose: KeyPurpose): RingKey {
    const key = this.#ring.active(purpose);
    if (!key) throw new Error(`no active ${purpose} key: ensureKeys() was not run`);
    return key;
  }

  /** The key's signing function, timed and counted for the metrics. */
  #timed(key: RingKey) {
    return (data: Uint8Array) => this.#observers.time(key.keyStore, () => key.sign(data));
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
    return { kid: key.kid, signature: await this.#timed(key)(data) };
  }

  async signJwt(
    purpose: KeyPurpose,
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    options: SignJwtOptions = {},
  ) {
    const key = this.#active(purpose);
    // The chain comes from the same ring entry as the key, so a rotation cannot split them.
    if (options.x5c && !key.chain.length)
      throw new Error(`the active ${purpose} key has no certificate chain`);
    const input = es256SigningInput(
      { ...header, alg: 'ES256', kid: key.kid, ...(options.x5c ? { x5c: key.chain } : {}) },
      payload,
    );
    const signature = await this.#timed(key)(Buffer.from(input));
    return `${input}.${Buffer.from(signature).toString('base64url')}`;
  }

  async #keyCertificates(): Promise<KeyCertificates> {
    this.#certificates ??= new KeyCertificates(
      await DevelopmentCa.loadOrCreate(this.#orm, this.#vaults),
      this.#options.names ?? DEFAULT_SERVICE_NAMES,
      this.#options.names !== undefined,
    );
    return this.#certificates;
  }
}
