import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDebianPackage } from './debian-package.js';

const require = createRequire(import.meta.url);

const run = promisify(execFile);

/** Debian's SoftHSM2 (package softhsm2, installed by .ci/run when missing). */
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

export interface SoftHsmToken {
  /** The token's own softhsm2.conf, to be SOFTHSM2_CONF of whoever loads the module. */
  conf: string;
  dir: string;
  tokenDir: string;
  label: string;
  pin: string;
  /** A PIN file as an operator writes one with echo: with a trailing newline. */
  pinFile: string;
  /** The KEY_STORE=pkcs11 settings that use this token. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * Whether SoftHSM is here, installing Debian's `softhsm2` once when it is not (as the browser tests
 * do Chromium). In CI (CI=true) its absence fails the test file loudly rather than skipping it:
 * .ci/run installs the package, so a missing one is a broken pipeline.
 */
export function softHsmAvailable(): boolean {
  const missing = ensureDebianPackage(
    'softhsm2',
    () => existsSync(SOFTHSM_MODULE) && existsSync('/usr/bin/softhsm2-util'),
  );
  if (missing && process.env.CI === 'true')
    throw new Error(`SoftHSM2 is missing (${SOFTHSM_MODULE}, softhsm2-util): ${missing}`);
  if (missing) console.warn(`skipping the PKCS#11 tests: ${missing}`);
  return !missing;
}

/**
 * A fresh SoftHSM token in a temporary directory of its own (never the machine's /var/lib/softhsm):
 * a softhsm2.conf whose `directories.tokendir` is there, initialised with softhsm2-util. Sets
 * SOFTHSM2_CONF for this process, where the module reads it at C_Initialize.
 */
export async function createSoftHsmToken(label = `credservice-${process.pid}`): Promise<SoftHsmToken> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'softhsm-'));
  const tokenDir = path.join(dir, 'tokens');
  await fs.mkdir(tokenDir);
  const conf = path.join(dir, 'softhsm2.conf');
  await fs.writeFile(
    conf,
    `directories.tokendir = ${tokenDir}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`,
  );
  const pin = '4321-test-pin';
  const env = { ...process.env, SOFTHSM2_CONF: conf };
  await run(
    'softhsm2-util',
    ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', '8765-test-so'],
    {
      env,
    },
  );
  const pinFile = path.join(dir, 'pin');
  await fs.writeFile(pinFile, `${pin}\n`, { mode: 0o600 });
  process.env.SOFTHSM2_CONF = conf;
  return {
    conf,
    dir,
    tokenDir,
    label,
    pin,
    pinFile,
    env: {
      SOFTHSM2_CONF: conf,
      KEY_STORE: 'pkcs11',
      PKCS11_MODULE: SOFTHSM_MODULE,
      PKCS11_TOKEN_LABEL: label,
      PKCS11_PIN_FILE: pinFile,
    },
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** Lists a token's private keys (CKA_ID hex, label) from a process of its own, so this one's module state is untouched. */
const LIST_KEYS = `
const p = require(process.argv[1]);
const m = new p.PKCS11();
m.load(process.argv[2]);
m.C_Initialize();
const slot = m.C_GetSlotList(true).find((s) => m.C_GetTokenInfo(s).label.trim() === process.argv[3]);
const session = m.C_OpenSession(slot, p.CKF_SERIAL_SESSION);
m.C_Login(session, p.CKU_USER, process.argv[4]);
m.C_FindObjectsInit(session, [{ type: p.CKA_CLASS, value: p.CKO_PRIVATE_KEY }]);
const handles = m.C_FindObjects(session, 1000);
m.C_FindObjectsFinal(session);
const keys = handles.map((h) => {
  const [id, label, sensitive, extractable] = m.C_GetAttributeValue(session, h, [
    { type: p.CKA_ID }, { type: p.CKA_LABEL }, { type: p.CKA_SENSITIVE }, { type: p.CKA_EXTRACTABLE },
  ]);
  return { id: id.value.toString('hex'), label: label.value.toString(), sensitive: sensitive.value[0] === 1, extractable: extractable.value[0] === 1 };
});
m.C_Finalize();
console.log(JSON.stringify(keys));
`;

export interface TokenPrivateKey {
  id: string;
  label: string;
  sensitive: boolean;
  extractable: boolean;
}

/** The private keys in the token now, read by a separate process. */
export async function tokenPrivateKeys(token: SoftHsmToken): Promise<TokenPrivateKey[]> {
  const { stdout } = await run(
    process.execPath,
    ['-e', LIST_KEYS, require.resolve('pkcs11js'), SOFTHSM_MODULE, token.label, token.pin],
    { env: { ...process.env, SOFTHSM2_CONF: token.conf } },
  );
  return JSON.parse(stdout) as TokenPrivateKey[];
}

/** Replaces a key's objects with a P-384 key pair under the same label and CKA_ID, as a mix-up would. */
const REPLACE_WITH_P384 = `
const p = require(process.argv[1]);
const [, , module, tokenLabel, pin, label, idHex] = process.argv;
const m = new p.PKCS11();
m.load(module);
m.C_Initialize();
const slot = m.C_GetSlotList(true).find((s) => m.C_GetTokenInfo(s).label.trim() === tokenLabel);
const session = m.C_OpenSession(slot, p.CKF_SERIAL_SESSION | p.CKF_RW_SESSION);
m.C_Login(session, p.CKU_USER, pin);
const id = Buffer.from(idHex, 'hex');
m.C_FindObjectsInit(session, [{ type: p.CKA_LABEL, value: label }, { type: p.CKA_ID, value: id }]);
for (const h of m.C_FindObjects(session, 10)) m.C_DestroyObject(session, h);
m.C_FindObjectsFinal(session);
const P384 = Buffer.from('06052b81040022', 'hex');
m.C_GenerateKeyPair(session, { mechanism: p.CKM_EC_KEY_PAIR_GEN },
  [{ type: p.CKA_TOKEN, value: true }, { type: p.CKA_EC_PARAMS, value: P384 }, { type: p.CKA_VERIFY, value: true }, { type: p.CKA_LABEL, value: label }, { type: p.CKA_ID, value: id }],
  [{ type: p.CKA_TOKEN, value: true }, { type: p.CKA_PRIVATE, value: true }, { type: p.CKA_SIGN, value: true }, { type: p.CKA_LABEL, value: label }, { type: p.CKA_ID, value: id }]);
m.C_Finalize();
`;

export async function replaceWithP384Key(
  token: SoftHsmToken,
  key: { label: string; id: string },
): Promise<void> {
  await run(
    process.execPath,
    [
      '-e',
      REPLACE_WITH_P384,
      require.resolve('pkcs11js'),
      SOFTHSM_MODULE,
      token.label,
      token.pin,
      key.label,
      key.id,
    ],
    { env: { ...process.env, SOFTHSM2_CONF: token.conf } },
  );
}
