import type { EntityManager } from '@mikro-orm/postgresql';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { expect } from 'vitest';
import {
  StatusListTokenHeader,
  StatusListTokenPayload,
} from '../../contract/status-list/status-list-token.js';
import type { Signer } from '../../server/keys/signer.js';
import { type AllocateOptions, allocateStatusEntry } from '../../server/status-list/allocate-status-entry.js';
import {
  type CredentialStatusValue,
  setCredentialStatus,
} from '../../server/status-list/set-credential-status.js';
import { currentStatuses } from '../../server/status-list/status-list-changes.js';
import { decodeStatusList, readStatus, StatusType } from '../../server/status-list/status-list-encoding.js';

export { sleep, until } from './until.js';

/** Helpers of the status list tests: allocating, changing and reading lists as issuance and verifiers do. */

/** Each allocation in a transaction of its own, as issuance does. */
export async function allocate(
  em: EntityManager,
  issuerUrl: string,
  count: number,
  options: AllocateOptions = {},
) {
  const entries = [];
  for (let i = 0; i < count; i++)
    entries.push(await em.fork().transactional((tx) => allocateStatusEntry(tx, issuerUrl, options)));
  return entries;
}

export const setStatus = (em: EntityManager, listId: string, idx: number, status: CredentialStatusValue) =>
  em.fork().transactional((tx) => setCredentialStatus(tx, { listId, idx }, status));

/** A list's statuses as they stand (pending changes applied), and how many changes it has had. */
export async function storedStatuses(em: EntityManager, listId: string) {
  const { bytes, version } = await currentStatuses(em.fork(), listId);
  return { bytes, version };
}

/** Fetches a list's token and checks it the way a verifier would: signature, typ, claims. */
export async function fetchList(baseUrl: string, listId: string, signer: Signer) {
  const res = await fetch(`${baseUrl}/status-lists/${listId}`);
  expect(res.status).toBe(200);
  const token = await res.text();
  const jwks = createLocalJWKSet({ keys: await signer.publicJwks('status-list') });
  const { payload } = await compactVerify(token, jwks);
  const header = StatusListTokenHeader.parse(decodeProtectedHeader(token));
  const claims = StatusListTokenPayload.parse(JSON.parse(new TextDecoder().decode(payload)));
  return { res, header, claims, bytes: decodeStatusList(claims.status_list.lst) };
}

/** Every entry that is not VALID, as index → status. */
export function nonValid(bytes: Uint8Array) {
  const found = new Map<number, number>();
  for (let idx = 0; idx < bytes.length * 4; idx++) {
    const s = readStatus(bytes, 2, idx);
    if (s !== StatusType.VALID) found.set(idx, s);
  }
  return found;
}
