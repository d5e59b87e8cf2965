import type { Logger } from 'pino';
import type { KeyEncryption } from './key-encryption.js';
import type { KeyVaults } from './key-vault.js';
import { type KeyStoreSettings, userPin } from './pkcs11/key-store-settings.js';
import { Pkcs11KeyVault } from './pkcs11/pkcs11-key-vault.js';
import { Pkcs11Token } from './pkcs11/pkcs11-token.js';
import { SoftwareKeyVault } from './software-key-vault.js';

/** libuv's thread pool runs the asynchronous C_Sign calls: one session per thread keeps them all busy. */
const signingThreads = () => Number(process.env.UV_THREADPOOL_SIZE) || 4;

/**
 * The vaults of KEY_STORE: the software one always (older software keys stay readable after a move
 * to an HSM, until they are retired), and with `pkcs11` the token, logged in now, where new keys
 * are made. Throws a SettingError naming the setting when the token cannot be used.
 */
export function openKeyVaults(
  settings: KeyStoreSettings,
  encryption: KeyEncryption,
  logger: Pick<Logger, 'info' | 'warn' | 'error'>,
): KeyVaults & { close(): void } {
  const local = new SoftwareKeyVault(encryption);
  if (settings.KEY_STORE !== 'pkcs11') return { configured: local, byKind: { local }, close() {} };
  const { pin, setting } = userPin(settings);
  const tokenLabel = settings.PKCS11_TOKEN_LABEL as string;
  const token = Pkcs11Token.open(
    {
      module: settings.PKCS11_MODULE as string,
      tokenLabel,
      pin,
      pinSetting: setting,
      sessions: signingThreads(),
    },
    logger,
  );
  const vault = new Pkcs11KeyVault(token, tokenLabel);
  logger.info(
    { module: settings.PKCS11_MODULE, token: tokenLabel },
    'signing keys are kept in a PKCS#11 token',
  );
  return { configured: vault, byKind: { local, pkcs11: vault }, close: () => token.close() };
}
