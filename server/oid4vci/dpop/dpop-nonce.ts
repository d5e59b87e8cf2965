import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** A nonce belongs to a window of this many seconds and is accepted in it and in the next. */
export const DPOP_NONCE_WINDOW_SECONDS = 300;

/**
 * Server-provided DPoP nonces (RFC 9449 sections 8 and 9) without any state: a nonce is the number
 * of a time window and an HMAC of it under a key every node derives from the same secret, so any
 * node checks any node's nonce, and nothing is stored per wallet. A nonce stays good for 5 to 10
 * minutes; replay within that time is stopped by the proof's `jti`, not by the nonce.
 */
export class DpopNonces {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'credservice', 'oid4vci/dpop-nonce', 32));
  }

  current(now = Date.now()): string {
    return this.#nonce(Math.floor(now / 1000 / DPOP_NONCE_WINDOW_SECONDS));
  }

  /** True for a nonce of this window or the one before, compared in constant time. */
  isFresh(nonce: string, now = Date.now()): boolean {
    const window = Math.floor(now / 1000 / DPOP_NONCE_WINDOW_SECONDS);
    const given = Buffer.from(nonce);
    return [window, window - 1].some((w) => {
      const expected = Buffer.from(this.#nonce(w));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }

  #nonce(window: number): string {
    const w = window.toString(36);
    return `${w}.${createHmac('sha256', this.#key).update(w).digest('base64url')}`;
  }
}
