import type { Logger } from 'pino';
import pkcs11 from 'pkcs11js';
import { unavailable } from '../../domain-errors.js';
import { SettingError } from '../../setting-error.js';
import { SessionPool } from './session-pool.js';

export interface TokenSettings {
  module: string;
  tokenLabel: string;
  pin: string;
  /** PKCS11_PIN_FILE or PKCS11_PIN: named when the token refuses the PIN. */
  pinSetting: string;
  /** Sessions to open: as many as signatures may run at once (libuv's thread pool). */
  sessions: number;
}

const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
const DRAIN_MS = 2_000;

/** pkcs11js throws these for a failed C_ call (Pkcs11Error, with the CKR_ name) or a native fault. */
const isTokenFault = (err: unknown) => err instanceof pkcs11.NativeError;

/**
 * One logged-in PKCS#11 token: the module loaded once, the slot found by PKCS11_TOKEN_LABEL, a pool
 * of read-write sessions. A C_ call that fails takes the token down at once: every signature then
 * fails fast with a 503 (`unavailable`), and a loop reconnects in the background with C_Finalize
 * and C_Initialize (SoftHSM 2.6.1 serves again only after that, whatever came back) until the
 * token answers and accepts the PIN; `generation` then counts up so object handles are found anew.
 */
export class Pkcs11Token {
  readonly #lib = new pkcs11.PKCS11();
  readonly #settings: TokenSettings;
  readonly #logger: Pick<Logger, 'info' | 'error' | 'warn'>;
  readonly #pool = new SessionPool();
  #up = false;
  #generation = 0;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(settings: TokenSettings, logger: Pick<Logger, 'info' | 'error' | 'warn'>) {
    this.#settings = settings;
    this.#logger = logger;
  }

  /** Loads the module and logs in, or throws a SettingError naming what is wrong. */
  static open(settings: TokenSettings, logger: Pick<Logger, 'info' | 'error' | 'warn'>): Pkcs11Token {
    const token = new Pkcs11Token(settings, logger);
    try {
      token.#lib.load(settings.module);
    } catch (err) {
      throw new SettingError(
        'PKCS11_MODULE',
        `cannot load the PKCS#11 module ${settings.module}: ${(err as Error).message}`,
      );
    }
    token.#connect();
    return token;
  }

  up(): boolean {
    return this.#up;
  }

  get generation(): number {
    return this.#generation;
  }

  /**
   * Runs `operation` on a session of its own. While the token is down this fails at once with
   * `unavailable`; a PKCS#11 fault in `operation` takes the token down and fails the same way.
   */
  async withSession<T>(
    operation: (lib: pkcs11.PKCS11, session: pkcs11.Handle) => T | Promise<T>,
  ): Promise<T> {
    if (!this.#up) throw this.#unavailable();
    const session = await this.#pool.acquire();
    const generation = this.#generation;
    try {
      return await operation(this.#lib, session);
    } catch (err) {
      if (!isTokenFault(err)) throw err;
      this.#down(err as Error);
      throw this.#unavailable();
    } finally {
      if (generation === this.#generation && this.#up) this.#pool.release(session);
      else this.#pool.discard();
    }
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#pool.drain(this.#unavailable());
    if (this.#up) this.#finalize();
    this.#up = false;
    this.#lib.close();
  }

  #unavailable() {
    return unavailable(
      'the signing key store (PKCS#11 token) is not available right now; try again shortly',
      'key-store-unavailable',
    );
  }

  /** C_Initialize, the slot of the token, PIN, sessions. Throws SettingError for what the operator must fix. */
  #connect(): void {
    const lib = this.#lib;
    try {
      // Signatures run on libuv's threads while the event loop starts others: without
      // CKF_OS_LOCKING_OK a module may take no locks at all (SoftHSM's session maps then race).
      lib.C_Initialize({ flags: pkcs11.CKF_OS_LOCKING_OK });
    } catch (err) {
      if ((err as { code?: number }).code !== pkcs11.CKR_CRYPTOKI_ALREADY_INITIALIZED) throw err;
    }
    const slots = lib.C_GetSlotList(true);
    const labels = slots.map((slot) => lib.C_GetTokenInfo(slot).label.trim());
    const index = labels.indexOf(this.#settings.tokenLabel);
    if (index < 0) {
      this.#finalize();
      const named = labels.filter(Boolean);
      const present = named.length ? named.map((l) => `"${l}"`).join(', ') : 'none';
      throw new SettingError(
        'PKCS11_TOKEN_LABEL',
        `no token labelled "${this.#settings.tokenLabel}" (tokens present: ${present})`,
      );
    }
    const slot = slots[index] as pkcs11.Handle;
    const flags = pkcs11.CKF_SERIAL_SESSION | pkcs11.CKF_RW_SESSION;
    const sessions = Array.from({ length: this.#settings.sessions }, () => lib.C_OpenSession(slot, flags));
    try {
      // One login serves every session of the application (PKCS#11 2.40 section 5.6).
      lib.C_Login(sessions[0] as pkcs11.Handle, pkcs11.CKU_USER, this.#settings.pin);
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code !== pkcs11.CKR_USER_ALREADY_LOGGED_IN) {
        this.#finalize();
        if (
          code === pkcs11.CKR_PIN_INCORRECT ||
          code === pkcs11.CKR_PIN_LEN_RANGE ||
          code === pkcs11.CKR_PIN_LOCKED
        )
          throw new SettingError(
            this.#settings.pinSetting,
            `the token "${this.#settings.tokenLabel}" refused the PIN (${(err as Error).message})`,
          );
        throw err;
      }
    }
    this.#pool.fill(sessions);
    this.#generation++;
    this.#up = true;
  }

  #finalize(): void {
    try {
      this.#lib.C_Finalize();
    } catch {
      // Already finalized, or the module lost its token: a new C_Initialize follows either way.
    }
  }

  #down(err: Error): void {
    if (!this.#up) return;
    this.#up = false;
    this.#pool.drain(this.#unavailable());
    this.#logger.error(
      { err: err.message },
      'the PKCS#11 token stopped answering; signatures fail with 503 until it is back',
    );
    this.#scheduleReconnect(RETRY_FIRST_MS);
  }

  #scheduleReconnect(delay: number): void {
    if (this.#closed) return;
    this.#retry = setTimeout(() => void this.#reconnect(delay), delay);
    this.#retry.unref();
  }

  /** Waits for calls in flight to return (never finalize under them), then starts the module afresh. */
  async #reconnect(delay: number): Promise<void> {
    const deadline = Date.now() + DRAIN_MS;
    while (this.#pool.busy > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    this.#finalize();
    try {
      this.#connect();
      this.#logger.info(
        { token: this.#settings.tokenLabel },
        'the PKCS#11 token answers again; signing resumes',
      );
    } catch (err) {
      this.#finalize();
      this.#logger.warn({ err: (err as Error).message }, 'the PKCS#11 token is still unavailable');
      this.#scheduleReconnect(Math.min(delay * 2, RETRY_MAX_MS));
    }
  }
}
