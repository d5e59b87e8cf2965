import type { Signer } from '../../server/keys/signer.js';
import { readStatus } from '../../server/status-list/status-list-encoding.js';
import { fetchList } from './status-lists.js';
import { until } from './until.js';

/** The status_list reference inside an SD-JWT VC (read without verifying: the tests verify elsewhere). */
export function statusOf(credential: string): { idx: number; uri: string } {
  const [jwt] = credential.split('~');
  const payload = JSON.parse(Buffer.from(jwt?.split('.')[1] ?? '', 'base64url').toString());
  return payload.status.status_list;
}

/** Waits until the published status list says `expected` (0 valid, 1 revoked, 2 suspended) for the credential. */
export async function publishedStatus(baseUrl: string, signer: Signer, credential: string, expected: number) {
  const { idx, uri } = statusOf(credential);
  const listId = uri.split('/').at(-1) ?? '';
  return until(
    async () => readStatus((await fetchList(baseUrl, listId, signer)).bytes, 2, idx),
    (v) => v === expected,
  );
}
