import { createPrivateKey, generateKeyPairSync, type JsonWebKey, randomUUID, sign } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CredentialStore, StoredCredential } from './credential-store.js';
import { WalletError } from './errors.js';
import type { HolderCrypto } from './holder-crypto.js';

/**
 * A wallet kept in a directory, so that a CLI can `receive` in one run and `present` in the next:
 * `keys.json` holds the holder keys (private JWKs, like any software wallet's key file) and
 * `credentials.json` the received credentials. Files are written whole (temporary file, then
 * rename) with mode 0600 in a 0700 directory; one process at a time is assumed, as for a demo CLI.
 */
export interface FileWallet {
  crypto: HolderCrypto;
  store: CredentialStore;
}

export function fileWallet(dir: string): FileWallet {
  const keysFile = path.join(dir, 'keys.json');
  const credentialsFile = path.join(dir, 'credentials.json');

  const readKeys = () => readJson<Record<string, JsonWebKey>>(keysFile, {});
  const readCredentials = async () =>
    (await readJson<StoredCredentialJson[]>(credentialsFile, [])).map((c) => ({
      ...c,
      receivedAt: new Date(c.receivedAt),
    }));
  const writeCredentials = (items: StoredCredential[]) => writeJson(dir, credentialsFile, items);

  const crypto: HolderCrypto = {
    async createKey() {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = randomUUID();
      await writeJson(dir, keysFile, { ...(await readKeys()), [id]: privateKey.export({ format: 'jwk' }) });
      const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
      return { id, alg: 'ES256', publicJwk: { kty, crv, x, y } };
    },
    async sign(keyId, data) {
      const jwk = (await readKeys())[keyId];
      if (!jwk) throw new WalletError(`no holder key ${keyId} in ${keysFile}`);
      const key = createPrivateKey({ key: jwk, format: 'jwk' });
      return new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }));
    },
  };

  const store: CredentialStore = {
    async save(credential) {
      const items = (await readCredentials()).filter((c) => c.id !== credential.id);
      await writeCredentials([...items, credential]);
    },
    async get(id) {
      return (await readCredentials()).find((c) => c.id === id);
    },
    list: readCredentials,
    async delete(id) {
      await writeCredentials((await readCredentials()).filter((c) => c.id !== id));
    },
  };

  return { crypto, store };
}

/** A stored credential as JSON holds it: the date as text, each format's members as they are. */
type Serialized<T> = T extends unknown ? Omit<T, 'receivedAt'> & { receivedAt: string } : never;
type StoredCredentialJson = Serialized<StoredCredential>;

async function readJson<T>(file: string, empty: T): Promise<T> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw e;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new WalletError(`${file} is not valid JSON`);
  }
}

async function writeJson(dir: string, file: string, value: unknown): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temporary, file);
}
