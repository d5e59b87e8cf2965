import { createHash, randomBytes } from 'node:crypto';
import pkcs11 from 'pkcs11js';
import { unavailable } from '../../domain-errors.js';
import { SettingError } from '../../setting-error.js';
import type { Es256Sign, GeneratedKey, KeyMaterial, KeyVault, TokenKey } from '../key-vault.js';
import { jwkOfEcPoint, P256_EC_PARAMS } from './ec-point.js';
import type { Pkcs11Token } from './pkcs11-token.js';

type Lib = pkcs11.PKCS11;

/** The token's objects of one key (private and public), by label and CKA_ID. */
function findObjects(lib: Lib, session: pkcs11.Handle, key: TokenKey, objectClass: number): pkcs11.Handle[] {
  lib.C_FindObjectsInit(session, [
    { type: pkcs11.CKA_CLASS, value: objectClass },
    { type: pkcs11.CKA_LABEL, value: key.label },
    { type: pkcs11.CKA_ID, value: Buffer.from(key.id, 'hex') },
  ]);
  try {
    return lib.C_FindObjects(session, 4);
  } finally {
    lib.C_FindObjectsFinal(session);
  }
}

/** A CK_ULONG attribute value (8 bytes on 64-bit platforms, 4 on others), little-endian here. */
const ulong = (value: Buffer) => Number(value.length === 8 ? value.readBigUInt64LE() : value.readUInt32LE());

const tokenKeyOf = (id: string, material: KeyMaterial): TokenKey => {
  if (!material.tokenKey) throw new Error(`key ${id}: no token reference`);
  return material.tokenKey;
};

/**
 * KEY_STORE=pkcs11: P-256 key pairs generated inside the token (CKA_TOKEN, CKA_SENSITIVE, not
 * CKA_EXTRACTABLE), found again by label and CKA_ID. A signature is SHA-256 in node, then CKM_ECDSA
 * in the token (SoftHSM 2.6.1 has no CKM_ECDSA_SHA256); PKCS#11 returns r||s, as JWS and COSE want.
 */
export class Pkcs11KeyVault implements KeyVault {
  readonly kind = 'pkcs11' as const;
  /** Object handles per key, valid for one token generation (a reconnect finds them anew). */
  readonly #handles = new Map<string, { generation: number; handle: pkcs11.Handle }>();

  constructor(
    readonly token: Pkcs11Token,
    readonly tokenLabel: string,
  ) {}

  up(): boolean {
    return this.token.up();
  }

  async generate(label: string): Promise<GeneratedKey> {
    const tokenKey: TokenKey = { label, id: randomBytes(16).toString('hex') };
    const id = Buffer.from(tokenKey.id, 'hex');
    const publicJwk = await this.token.withSession(async (lib, session) => {
      const keys = await lib.C_GenerateKeyPairAsync(
        session,
        { mechanism: pkcs11.CKM_EC_KEY_PAIR_GEN },
        [
          { type: pkcs11.CKA_TOKEN, value: true },
          { type: pkcs11.CKA_PRIVATE, value: false },
          { type: pkcs11.CKA_VERIFY, value: true },
          { type: pkcs11.CKA_EC_PARAMS, value: P256_EC_PARAMS },
          { type: pkcs11.CKA_LABEL, value: label },
          { type: pkcs11.CKA_ID, value: id },
        ],
        [
          { type: pkcs11.CKA_TOKEN, value: true },
          { type: pkcs11.CKA_PRIVATE, value: true },
          { type: pkcs11.CKA_SENSITIVE, value: true },
          { type: pkcs11.CKA_EXTRACTABLE, value: false },
          { type: pkcs11.CKA_SIGN, value: true },
          { type: pkcs11.CKA_LABEL, value: label },
          { type: pkcs11.CKA_ID, value: id },
        ],
      );
      const [point] = lib.C_GetAttributeValue(session, keys.publicKey, [{ type: pkcs11.CKA_EC_POINT }]);
      return jwkOfEcPoint(point?.value as Buffer);
    });
    return { publicJwk, material: () => ({ keyStore: 'pkcs11', privateKeyEnc: null, tokenKey }) };
  }

  signerOf(kid: string, material: KeyMaterial): Es256Sign {
    const tokenKey = tokenKeyOf(kid, material);
    return (data) => {
      const digest = createHash('sha256').update(data).digest();
      return this.token.withSession(async (lib, session) => {
        lib.C_SignInit(
          session,
          { mechanism: pkcs11.CKM_ECDSA },
          this.#privateKey(lib, session, kid, tokenKey),
        );
        return new Uint8Array(await lib.C_SignAsync(session, digest, Buffer.alloc(64)));
      });
    };
  }

  async check(kid: string, material: KeyMaterial, publicJwk: Record<string, string>): Promise<void> {
    const tokenKey = tokenKeyOf(kid, material);
    const where = `token "${this.tokenLabel}", label "${tokenKey.label}", CKA_ID ${tokenKey.id}`;
    const problem = await this.token.withSession((lib, session) => {
      const [handle] = findObjects(lib, session, tokenKey, pkcs11.CKO_PRIVATE_KEY);
      if (handle === undefined) return `no private key of ${kid} (${where}): is this the deployment's token?`;
      const [type, params] = lib.C_GetAttributeValue(session, handle, [
        { type: pkcs11.CKA_KEY_TYPE },
        { type: pkcs11.CKA_EC_PARAMS },
      ]);
      if (ulong(type?.value as Buffer) !== pkcs11.CKK_EC) return `the key under ${where} is not an EC key`;
      if (!P256_EC_PARAMS.equals(params?.value as Buffer))
        return `the key under ${where} is not on the P-256 curve`;
      const [publicHandle] = findObjects(lib, session, tokenKey, pkcs11.CKO_PUBLIC_KEY);
      if (publicHandle !== undefined) {
        const [point] = lib.C_GetAttributeValue(session, publicHandle, [{ type: pkcs11.CKA_EC_POINT }]);
        const jwk = jwkOfEcPoint(point?.value as Buffer);
        if (jwk.x !== publicJwk.x || jwk.y !== publicJwk.y)
          return `the key under ${where} is not the key ${kid}`;
      }
      return undefined;
    });
    if (problem) throw new SettingError('PKCS11_TOKEN_LABEL', problem);
  }

  async destroy(kid: string, material: KeyMaterial): Promise<void> {
    const tokenKey = tokenKeyOf(kid, material);
    await this.token.withSession((lib, session) => {
      for (const objectClass of [pkcs11.CKO_PRIVATE_KEY, pkcs11.CKO_PUBLIC_KEY])
        for (const handle of findObjects(lib, session, tokenKey, objectClass))
          lib.C_DestroyObject(session, handle);
    });
    this.#handles.delete(kid);
  }

  #privateKey(lib: Lib, session: pkcs11.Handle, kid: string, tokenKey: TokenKey): pkcs11.Handle {
    const known = this.#handles.get(kid);
    if (known?.generation === this.token.generation) return known.handle;
    const [handle] = findObjects(lib, session, tokenKey, pkcs11.CKO_PRIVATE_KEY);
    if (handle === undefined)
      throw unavailable(`the signing key ${kid} is not in the token`, 'key-store-unavailable');
    this.#handles.set(kid, { generation: this.token.generation, handle });
    return handle;
  }
}
