import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { KEY_STORE_KINDS } from '../../../contract/admin/signing-key.js';
import { SettingError } from '../../setting-error.js';

/** Where signing keys live; part of the service's configuration (server/config.ts, README). */
export const KeyStoreEnv = z.object({
  /** `local` (default): software keys sealed in PostgreSQL; `pkcs11`: keys made inside a token. */
  KEY_STORE: z.enum(KEY_STORE_KINDS).default('local'),
  /** Path of the PKCS#11 module (e.g. /usr/lib/softhsm/libsofthsm2.so, a network HSM's client library). */
  PKCS11_MODULE: z.string().min(1).optional(),
  /** The token's label (CKA_LABEL of its token info, as `softhsm2-util --init-token --label` set it). */
  PKCS11_TOKEN_LABEL: z.string().min(1).optional(),
  /** A file holding the user PIN (a trailing newline, as `echo` writes, is trimmed). */
  PKCS11_PIN_FILE: z.string().min(1).optional(),
  /** The user PIN itself, when no PIN file is used. */
  PKCS11_PIN: z.string().min(1).optional(),
});

export type KeyStoreSettings = z.infer<typeof KeyStoreEnv>;

/** The settings KEY_STORE=pkcs11 cannot go without, each named with what is missing. */
export function keyStoreSettingErrors(e: KeyStoreSettings): string[] {
  if (e.KEY_STORE !== 'pkcs11') return [];
  const errors: string[] = [];
  if (!e.PKCS11_MODULE) errors.push('PKCS11_MODULE: required with KEY_STORE=pkcs11 (the module path)');
  if (!e.PKCS11_TOKEN_LABEL) errors.push('PKCS11_TOKEN_LABEL: required with KEY_STORE=pkcs11');
  if (!e.PKCS11_PIN_FILE && !e.PKCS11_PIN)
    errors.push('PKCS11_PIN_FILE: required with KEY_STORE=pkcs11 (or PKCS11_PIN)');
  return errors;
}

/** The user PIN, from PKCS11_PIN_FILE (trimmed) or PKCS11_PIN; and which setting gave it, for errors. */
export function userPin(e: KeyStoreSettings): { pin: string; setting: 'PKCS11_PIN_FILE' | 'PKCS11_PIN' } {
  if (e.PKCS11_PIN_FILE) {
    let text: string;
    try {
      text = readFileSync(e.PKCS11_PIN_FILE, 'utf8');
    } catch (err) {
      throw new SettingError(
        'PKCS11_PIN_FILE',
        `cannot read ${e.PKCS11_PIN_FILE} (${(err as NodeJS.ErrnoException).code})`,
      );
    }
    const pin = text.trim();
    if (!pin) throw new SettingError('PKCS11_PIN_FILE', `${e.PKCS11_PIN_FILE} is empty`);
    return { pin, setting: 'PKCS11_PIN_FILE' };
  }
  return { pin: e.PKCS11_PIN as string, setting: 'PKCS11_PIN' };
}
