import { createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hashSecret, secretMatches } from '../tenants/token-secret.js';

export const TX_CODE_LENGTH = 6;

/** A tx_code, or the one-time code of a holder's sign-in: TX_CODE_LENGTH random digits. */
export const newTxCode = () => String(randomInt(0, 10 ** TX_CODE_LENGTH)).padStart(TX_CODE_LENGTH, '0');

/**
 * The secrets of an offer. The pre-authorized code is `<offer id>.<expiry>.<HMAC of both>`: nothing
 * secret is stored for it, each fetch of the open offer mints a fresh one with its own short
 * expiry, and the token endpoint checks it in constant time. The tx_code is 6 random digits, kept
 * only as a hash salted with the offer id.
 */
export class OfferCodes {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'credservice', 'oid4vci/pre-authorized-code', 32));
  }

  newOfferId(): string {
    return randomBytes(16).toString('base64url');
  }

  /** A code for the offer that stops working at `expiresAt` (to the second). */
  preAuthorizedCode(offerId: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000).toString(36);
    return `${offerId}.${exp}.${this.#mac(`${offerId}.${exp}`)}`;
  }

  /**
   * The offer a pre-authorized code belongs to and when the code expires, or undefined when the code
   * is not one of ours.
   */
  readPreAuthorizedCode(code: string): { offerId: string; expiresAt: Date } | undefined {
    const [offerId, exp, mac, extra] = code.split('.');
    if (!offerId || !exp || !mac || extra !== undefined || !/^[0-9a-z]{1,10}$/.test(exp)) return undefined;
    if (!this.#macMatches(`${offerId}.${exp}`, mac)) return undefined;
    return { offerId, expiresAt: new Date(Number.parseInt(exp, 36) * 1000) };
  }

  /**
   * The `issuer_state` of an authorization code offer (OID4VCI 1.0 section 4.1.1): the offer id with
   * its MAC, so the PAR endpoint knows the offer without storing anything for it.
   */
  issuerState(offerId: string): string {
    return `${offerId}.${this.#mac(`issuer_state:${offerId}`)}`;
  }

  /** The offer an issuer_state names, or undefined when it is not one of ours. */
  readIssuerState(state: string): string | undefined {
    const [offerId, mac, extra] = state.split('.');
    if (!offerId || !mac || extra !== undefined) return undefined;
    return this.#macMatches(`issuer_state:${offerId}`, mac) ? offerId : undefined;
  }

  /** The tx_code's stored form: salted with the offer id, so equal codes of two offers differ. */
  hashTxCode(offerId: string, txCode: string): string {
    return hashSecret(`${offerId}:${txCode}`);
  }

  txCodeMatches(offerId: string, txCode: string, storedHash: string): boolean {
    return secretMatches(`${offerId}:${txCode}`, storedHash);
  }

  #mac(data: string): string {
    return createHmac('sha256', this.#key).update(data).digest('base64url');
  }

  /** Whether `mac` is the MAC of `data`, compared in constant time. */
  #macMatches(data: string, mac: string): boolean {
    const expected = Buffer.from(this.#mac(data));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
