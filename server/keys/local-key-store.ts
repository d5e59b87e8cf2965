import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompactSign, calculateJwkThumbprint, type JWK } from 'jose';
import type { Orm } from '../persistence/orm.js';
import type { KeyEncryption } from './key-encryption.js';
import { selfSignedCertificate } from './self-signed-certificate.js';
import type { Signer } from './signer.js';
import { KEY_PURPOSES, type KeyPurpose, SigningKey } from './signing-key.entity.js';

const ACTIVE_TTL_MS = 30_000;

/**
 * Local ES256 keys: generated on first start, kept in `signing_key` encrypted, decrypted into
 * non-exported KeyObjects on first use. Which key is active is re-read every 30 s, so a rotation on
 * one node reaches the others without a restart.
 */
export class LocalKeyStore implements Signer {
  readonly #orm: Orm;
  readonly #encryption: KeyEncryption;
  readonly #privateKeys = new Map<string, { key: KeyObject; purpose: KeyPurpose }>();
  readonly #active = new Map<KeyPurpose, { kid: string; at: number }>();

  readonly #certificateSubject: string;
  readonly #certificates = new Map<string, Promise<string>>();

  constructor(orm: Orm, encryption: KeyEncryption, certificateSubject = 'credservice') {
    this.#orm = orm;
    this.#encryption = encryption;
    this.#certificateSubject = certificateSubject;
  }

  /**
   * Made once per key: concurrent callers in this process share one promise, and other nodes wait on
   * the row lock and then read the certificate the first one stored, so everyone presents the same.
   */
  async certificateChain(purpose: KeyPurpose): Promise<string[]> {
    const kid = await this.activeKid(purpose);
    let certificate = this.#certificates.get(kid);
    if (!certificate) {
      certificate = this.#certificateOf(kid, purpose);
      this.#certificates.set(kid, certificate);
      certificate.catch(() => this.#certificates.delete(kid));
    }
    return [await certificate];
  }

  async #certificateOf(kid: string, purpose: KeyPurpose): Promise<string> {
    return this.#orm.em.fork().transactional(async (tx) => {
      const row = await tx.findOneOrFail(SigningKey, { kid }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row.certificate) {
        const publicKey = createPublicKey({
          key: row.publicJwk as import('node:crypto').JsonWebKey,
          format: 'jwk',
        });
        row.certificate = await selfSignedCertificate(
          await this.#privateKey(kid, purpose),
          publicKey,
          this.#certificateSubject,
        );
      }
      return row.certificate;
    });
  }

  /** Makes sure every purpose has an active key; safe when several nodes start together. */
  async ensureKeys(): Promise<void> {
    const em = this.#orm.em.fork();
    for (const purpose of KEY_PURPOSES) {
      if (await em.findOne(SigningKey, { purpose, status: 'active' })) continue;
      await em.transactional(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signing-key:${purpose}`]);
        if (!(await tx.findOne(SigningKey, { purpose, status: 'active' }))) await this.#generate(tx, purpose);
      });
    }
  }

  /** A new active key for the purpose; the one it replaces stays published as retiring. */
  async rotate(purpose: KeyPurpose): Promise<SigningKey> {
    const key = await this.#orm.em.fork().transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signing-key:${purpose}`]);
      await tx.nativeUpdate(SigningKey, { purpose, status: 'active' }, { status: 'retiring' });
      return this.#generate(tx, purpose);
    });
    this.#active.set(purpose, { kid: key.kid, at: Date.now() });
    return key;
  }

  async list(): Promise<SigningKey[]> {
    return this.#orm.em.fork().find(SigningKey, {}, { orderBy: { purpose: 'asc', createdAt: 'desc' } });
  }

  async activeKid(purpose: KeyPurpose): Promise<string> {
    const cached = this.#active.get(purpose);
    if (cached && Date.now() - cached.at < ACTIVE_TTL_MS) return cached.kid;
    const row = await this.#orm.em.fork().findOne(SigningKey, { purpose, status: 'active' });
    if (!row) throw new Error(`no active ${purpose} key: ensureKeys() was not run`);
    this.#active.set(purpose, { kid: row.kid, at: Date.now() });
    return row.kid;
  }

  async publicJwks(purpose: KeyPurpose): Promise<JWK[]> {
    const rows = await this.#orm.em
      .fork()
      .find(
        SigningKey,
        { purpose, status: { $in: ['active', 'retiring'] } },
        { orderBy: { createdAt: 'desc' } },
      );
    return rows.map((r) => ({ ...r.publicJwk, kid: r.kid, alg: 'ES256', use: 'sig' }));
  }

  async sign(purpose: KeyPurpose, data: Uint8Array, pinned?: string) {
    const kid = pinned ?? (await this.activeKid(purpose));
    const key = await this.#privateKey(kid, purpose);
    return { kid, signature: new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })) };
  }

  async signJwt(purpose: KeyPurpose, header: Record<string, unknown>, payload: Record<string, unknown>) {
    const kid = await this.activeKid(purpose);
    const key = await this.#privateKey(kid, purpose);
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ ...header, alg: 'ES256', kid })
      .sign(key);
  }

  async #privateKey(kid: string, purpose: KeyPurpose): Promise<KeyObject> {
    const cached = this.#privateKeys.get(kid);
    if (cached?.purpose === purpose) return cached.key;
    const row = await this.#orm.em.fork().findOne(SigningKey, { kid, purpose, status: { $ne: 'retired' } });
    if (!row) throw new Error(`no current ${purpose} key ${kid}`);
    const key = createPrivateKey({
      key: this.#encryption.open(row.privateKeyEnc, kid),
      format: 'der',
      type: 'pkcs8',
    });
    this.#privateKeys.set(kid, { key, purpose });
    return key;
  }

  async #generate(tx: EntityManager, purpose: KeyPurpose): Promise<SigningKey> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as Record<string, string>;
    const publicJwk = { kty: kty as string, crv: crv as string, x: x as string, y: y as string };
    const kid = await calculateJwkThumbprint(publicJwk);
    const der = privateKey.export({ format: 'der', type: 'pkcs8' });
    const row = tx.create(SigningKey, {
      kid,
      purpose,
      alg: 'ES256',
      publicJwk,
      privateKeyEnc: this.#encryption.seal(der, kid),
      status: 'active',
      retiredAt: null,
      certificate: null,
    });
    await tx.flush();
    this.#privateKeys.set(kid, { key: privateKey, purpose });
    return row;
  }
}
