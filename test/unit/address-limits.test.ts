import { describe, expect, it } from 'vitest';
import { memoryTtlStore } from '../../server/ephemeral/ttl-store.js';
import {
  countWrongCodeForAddress,
  MAX_CODES_PER_ADDRESS,
  MAX_WRONG_CODES_PER_ADDRESS,
  mayMailCode,
} from '../../server/oid4vci/authorization-code/address-limits.js';

/** The per-address limits of wallet-initiated sign-ins, on the embedded default's in-memory store. */
describe('address limits of wallet-initiated sign-ins', () => {
  it('mails at most MAX_CODES_PER_ADDRESS codes per window to one address, whatever its case', async () => {
    const store = memoryTtlStore();
    for (let i = 0; i < MAX_CODES_PER_ADDRESS; i++)
      expect(await mayMailCode(store, i % 2 ? 'Ana@Example.test' : 'ana@example.test')).toBe(true);
    expect(await mayMailCode(store, 'ANA@example.test')).toBe(false);
    expect(await mayMailCode(store, 'other@example.test')).toBe(true);
  });

  it('counts wrong codes over all sign-ins of an address and then mails it no more codes', async () => {
    const store = memoryTtlStore();
    for (let i = 1; i < MAX_WRONG_CODES_PER_ADDRESS; i++)
      expect(await countWrongCodeForAddress(store, 'bo@example.test')).toBe(false);
    expect(await mayMailCode(store, 'bo@example.test')).toBe(true);
    expect(await countWrongCodeForAddress(store, 'Bo@example.test')).toBe(true);
    expect(await countWrongCodeForAddress(store, 'bo@example.test')).toBe(true);
    expect(await mayMailCode(store, 'bo@example.test')).toBe(false);
  });

  it('counts parallel wrong codes one by one', async () => {
    const store = memoryTtlStore();
    const last = await Promise.all(
      Array.from({ length: MAX_WRONG_CODES_PER_ADDRESS }, () =>
        countWrongCodeForAddress(store, 'cy@example.test'),
      ),
    );
    expect(last.filter(Boolean)).toHaveLength(1);
  });
});
