import { describe, expect, it } from 'vitest';
import { DPOP_NONCE_WINDOW_SECONDS, DpopNonces } from '../../server/oid4vci/dpop/dpop-nonce.js';

const W = DPOP_NONCE_WINDOW_SECONDS * 1000;

describe('stateless DPoP nonces', () => {
  const nonces = new DpopNonces('secret');
  const t0 = 1_800_000_000_000 - (1_800_000_000_000 % W);

  it('accepts a nonce in its window and the next, not after', () => {
    const nonce = nonces.current(t0);
    expect(nonces.isFresh(nonce, t0)).toBe(true);
    expect(nonces.isFresh(nonce, t0 + W + 1)).toBe(true);
    expect(nonces.isFresh(nonce, t0 + 2 * W)).toBe(false);
    expect(nonces.isFresh(nonce, t0 - 1)).toBe(false);
  });

  it('is the same on every node with the same secret, and refuses another secret or a tampered one', () => {
    const nonce = nonces.current(t0);
    expect(new DpopNonces('secret').isFresh(nonce, t0)).toBe(true);
    expect(new DpopNonces('other').isFresh(nonce, t0)).toBe(false);
    expect(nonces.isFresh(`${nonce.slice(0, -1)}A`, t0)).toBe(nonce.endsWith('A'));
    expect(nonces.isFresh('', t0)).toBe(false);
  });
});
