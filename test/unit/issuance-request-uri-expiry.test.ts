import type { EntityManager } from '@mikro-orm/postgresql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryTtlStore } from '../../server/ephemeral/ttl-store.js';
import { startHolderSignIn } from '../../server/oid4vci/authorization-code/holder-sign-in.js';
import {
  keys,
  REQUEST_URI_PREFIX,
  REQUEST_URI_TTL_SECONDS,
} from '../../server/oid4vci/authorization-code/pending-authorization.js';

/**
 * RFC 9126 section 2.2: a request_uri is short-lived. Past its expires_in the authorization endpoint
 * refuses it as invalid_request_uri before reading anything else (so no database is needed here:
 * the refusal comes from the TTL store alone).
 */
afterEach(() => {
  vi.useRealTimers();
});

const pending = {
  issuanceId: 'offer-1',
  tenantId: 't',
  configurationId: 'c',
  clientId: 'wallet-1',
  redirectUri: 'https://wallet.example/cb',
  codeChallenge: 'x'.repeat(43),
};

describe('request_uri expiry', () => {
  it('refuses a request_uri once its lifetime has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = memoryTtlStore();
    await store.set(keys.pushed('abc'), JSON.stringify(pending), REQUEST_URI_TTL_SECONDS);
    vi.setSystemTime(Date.now() + (REQUEST_URI_TTL_SECONDS + 1) * 1000);
    await expect(
      startHolderSignIn({} as EntityManager, store, 'wallet-1', `${REQUEST_URI_PREFIX}abc`),
    ).rejects.toMatchObject({ error: 'invalid_request_uri' });
  });

  it('refuses it for another client_id, and then it is spent', async () => {
    const store = memoryTtlStore();
    await store.set(keys.pushed('abc'), JSON.stringify(pending), REQUEST_URI_TTL_SECONDS);
    await expect(
      startHolderSignIn({} as EntityManager, store, 'other', `${REQUEST_URI_PREFIX}abc`),
    ).rejects.toMatchObject({ error: 'invalid_request' });
    await expect(
      startHolderSignIn({} as EntityManager, store, 'wallet-1', `${REQUEST_URI_PREFIX}abc`),
    ).rejects.toMatchObject({ error: 'invalid_request_uri' });
  });
});
