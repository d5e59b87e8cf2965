import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The secrets of an offer. The pre-authorized code is `<offer id>.<HMAC of the offer id>`: nothing
 * secret is stored for it, the offer endpoint can hand it out again, and the token endpoint checks
 * it in constant time. The tx_code is 6 random digits, kept only as a hash salted with the offer id.
 */
export class OfferCodes {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'credservice', 'oid4vci/pre-authorized-code', 32));
  }

  newOfferId(): string {
    return randomBytes(16).toString('base64url');
  }

  preAuthorizedCode(offerId: string): string {
    return `${offerId}.${this.#mac(offerId)}`;
  }

  /** The offer a pre-authorized code belongs to, or undefined when the code is not one of ours. */
  offerIdOf(code: string): string | undefined {
    const [offerId, mac, extra] = code.split('.');
    if (!offerId || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.#mac(offerId));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given) ? offerId : undefined;
  }

  newTxCode(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  hashTxCode(offerId: string, txCode: string): string {
    return createHash('sha256').update(`${offerId}:${txCode}`).digest('hex');
  }

  txCodeMatches(offerId: string, txCode: string, storedHash: string): boolean {
    const a = Buffer.from(this.hashTxCode(offerId, txCode), 'hex');
    const b = Buffer.from(storedHash, 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  #mac(offerId: string): string {
    return createHmac('sha256', this.#key).update(offerId).digest('base64url');
  }
}

export const TX_CODE_LENGTH = 6;
