import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompactSign, calculateJwkThumbprint, type JWK } from 'jose';
import { invalidate, nodeCachesOf } from '../cache/node-caches.js';
import type { Orm } from '../persistence/orm.js';
import type { KeyEncryption } from './key-encryption.js';
import { KeyRing } from './key-ring.js';
import { selfSignedCertificate } from './self-signed-certificate.js';
import type { Signer } from './signer.js';
import { KEY_PURPOSES, type KeyPurpose, SigningKey } from './signing-key.entity.js';

const REFRESH_MS = 30_000;
/** The invalidation topic of the `signing_key` table (see server/cache). */
const KEYS_CHANGED = 'signing-key';

/**
 * Local ES256 keys: generated on first start (each with its self-signed certificate), kept in
 * `signing_key` encrypted, and served from an in-memory KeyRing. The ring is reloaded at once when
 * any node adds or rotates a key (NOTIFY at its commit, see server/cache) and every 30 s as a
 * safety net, so no request ever reads the table.
 */
export class LocalKeyStore implements Signer {
  readonly #orm: Orm;
  readonly #encryption: KeyEncryption;
  readonly #certificateSubject: string;
  #ring = KeyRing.empty();
  #timer: NodeJS.Timeout | undefined;
  /** Reloads may overlap (timer, notification); only one started later than the applied one wins. */
  #reloadsStarted = 0;
  #reloadApplied = 0;

  constructor(orm: Orm, encryption: KeyEncryption, certificateSubject = 'credservice') {
    this.#orm = orm;
    this.#encryption = encryption;
    this.#certificateSubject = certificateSubject;
  }

  /** Makes sure every purpose has an active key with a certificate, loads the ring, keeps it fresh. */
  async ensureKeys(): Promise<void> {
    for (const purpose of KEY_PURPOSES) {
      await this.#orm.em.fork().transactional(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signing-key:${purpose}`]);
        const active = await tx.findOne(SigningKey, { purpose, status: 'active' });
        if (!active) await this.#generate(tx, purpose);
        else if (!active.certificate) active.certificate = await this.#certificate(active);
      });
    }
    await this.refresh();
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

  /** A new active key for the purpose; the one it replaces stays published as retiring. */
  async rotate(purpose: KeyPurpose): Promise<SigningKey> {
    const key = await this.#orm.em.fork().transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signing-key:${purpose}`]);
      await tx.nativeUpdate(SigningKey, { purpose, status: 'active' }, { status: 'retiring' });
      return this.#generate(tx, purpose);
    });
    await this.refresh();
    return key;
  }

  async list(): Promise<SigningKey[]> {
    return this.#orm.em.fork().find(SigningKey, {}, { orderBy: { purpose: 'asc', createdAt: 'desc' } });
  }

  #active(purpose: KeyPurpose) {
    const key = this.#ring.active(purpose);
    if (!key) throw new Error(`no active ${purpose} key: ensureKeys() was not run`);
    return key;
  }

  async activeKid(purpose: KeyPurpose): Promise<string> {
    return this.#active(purpose).kid;
  }

  async certificateChain(purpose: KeyPurpose): Promise<string[]> {
    const { certificate } = this.#active(purpose);
    if (!certificate) throw new Error(`the active ${purpose} key has no certificate`);
    return [certificate];
  }

  async publicJwks(purpose: KeyPurpose): Promise<JWK[]> {
    return this.#ring.published(purpose).map((k) => ({ ...k.publicJwk, kid: k.kid, alg: 'ES256', use: 'sig' }));
  }

  async sign(purpose: KeyPurpose, data: Uint8Array, pinned?: string) {
    const key = pinned ? this.#ring.get(pinned, purpose) : this.#active(purpose);
    if (!key) throw new Error(`no current ${purpose} key ${pinned}`);
    const signature = sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    return { kid: key.kid, signature: new Uint8Array(signature) };
  }

  async signJwt(purpose: KeyPurpose, header: Record<string, unknown>, payload: Record<string, unknown>) {
    const { kid, privateKey } = this.#active(purpose);
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ ...header, alg: 'ES256', kid })
      .sign(privateKey);
  }

  async #certificate(row: Pick<SigningKey, 'kid' | 'publicJwk' | 'privateKeyEnc'>): Promise<string> {
    const privateKey = createPrivateKey({
      key: this.#encryption.open(row.privateKeyEnc, row.kid),
      format: 'der',
      type: 'pkcs8',
    });
    const publicKey = createPublicKey({ key: row.publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    return selfSignedCertificate(privateKey, publicKey, this.#certificateSubject);
  }

  async #generate(tx: EntityManager, purpose: KeyPurpose): Promise<SigningKey> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as Record<string, string>;
    const publicJwk = { kty: kty as string, crv: crv as string, x: x as string, y: y as string };
    const kid = await calculateJwkThumbprint(publicJwk);
    const row = tx.create(SigningKey, {
      kid,
      purpose,
      alg: 'ES256',
      publicJwk,
      privateKeyEnc: this.#encryption.seal(privateKey.export({ format: 'der', type: 'pkcs8' }), kid),
      status: 'active',
      retiredAt: null,
      certificate: await selfSignedCertificate(privateKey, publicKey, this.#certificateSubject),
    });
    await tx.flush();
    await invalidate(tx, KEYS_CHANGED);
    return row;
  }
}
