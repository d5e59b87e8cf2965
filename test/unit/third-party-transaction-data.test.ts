import { describe, expect, it } from 'vitest';
import {
  APPROVAL,
  approvalVerifier,
  EMPLOYEE_QUERY,
  encodeTransactionData,
  SD_JWT_FORMATS,
  sha256Of,
  verifiedKbJwtPayload,
  verifyWithLibrary,
} from '../support/approval-request.js';
import { issue } from '../support/oid4vp-fixtures.js';
import { type PresentOptions, ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * The third-party holder (@openid4vc/openid4vp, @sd-jwt) with transaction data: the library parses
 * it when resolving the request, the holder signs its hashes when approved, and it can leave them
 * out or hash the wrong string, so that a verifier's refusal of each can be tested.
 */
const verifier = await approvalVerifier();
const entries = [
  encodeTransactionData(APPROVAL),
  encodeTransactionData({ ...APPROVAL, subject: 'PO-7', amount: undefined }),
];

async function presentWith(transactionData: string[], options: PresentOptions) {
  const served = verifier.serve(await verifier.request(transactionData));
  const holder = await ThirdPartyHolder.create(served.fetch);
  const credential = await issue({ holderJwk: holder.holderJwk });
  const result = await holder.present(verifier.link, [credential], options);
  const vpToken = JSON.parse(served.posted[0]?.vp_token ?? '{}') as Record<string, string[]>;
  const kb = await verifiedKbJwtPayload(vpToken.employee?.[0] ?? '', holder.holderJwk);
  return { result, kb };
}

describe('the third-party holder answers a request with transaction data', () => {
  it('signs the hash of each string as received when approved; the library parsed the entries', async () => {
    const { result, kb } = await presentWith(entries, { approve: true });
    expect(result.status).toBe(200);
    expect(result.resolved.transactionData?.map((t) => t.encoded)).toEqual(entries);
    expect(result.resolved.transactionData?.[0]?.transactionData).toMatchObject({ subject: 'PO-2026-0042' });
    expect(kb).toMatchObject({
      transaction_data_hashes: entries.map(sha256Of),
      transaction_data_hashes_alg: 'sha-256',
    });
    await expect(verifyWithLibrary(entries, { employee: kb })).resolves.toHaveLength(2);
  });

  it('refuses without approval, and sends nothing', async () => {
    const served = verifier.serve(await verifier.request(entries));
    const holder = await ThirdPartyHolder.create(served.fetch);
    const credential = await issue({ holderJwk: holder.holderJwk });
    await expect(holder.present(verifier.link, [credential])).rejects.toThrow(/not approved/);
    const unknownQuery = encodeTransactionData({ ...APPROVAL, credential_ids: ['nope'] });
    const other = verifier.serve(await verifier.request([unknownQuery]));
    const careful = await ThirdPartyHolder.create(other.fetch);
    await expect(
      careful.present(verifier.link, [await issue({ holderJwk: careful.holderJwk })], { approve: true }),
    ).rejects.toThrow(/invalid_transaction_data: 0 names query nope/);
    expect([...served.posted, ...other.posted]).toEqual([]);
  });

  it('misbehaves on request: no hashes, or the hash of the decoded JSON', async () => {
    const omitted = await presentWith(entries, { approve: true, transactionDataMode: 'omit' });
    expect(omitted.kb).not.toHaveProperty('transaction_data_hashes');
    await expect(verifyWithLibrary(entries, { employee: omitted.kb })).rejects.toThrow();

    const wrong = await presentWith(entries, { approve: true, transactionDataMode: 'wrong' });
    const decoded = entries.map((e) => sha256Of(Buffer.from(e, 'base64url').toString()));
    expect(wrong.kb.transaction_data_hashes).toEqual(decoded);
    await expect(verifyWithLibrary(entries, { employee: wrong.kb })).rejects.toThrow(/no.* matching hash/);
  });

  it('answers over the Digital Credentials API with the hashes too', async () => {
    const holder = await ThirdPartyHolder.create();
    const data = {
      response_type: 'vp_token',
      response_mode: 'dc_api',
      nonce: 'n-dc-1',
      dcql_query: { credentials: [EMPLOYEE_QUERY] },
      client_metadata: { vp_formats_supported: SD_JWT_FORMATS },
      transaction_data: entries,
    };
    const credential = await issue({ holderJwk: holder.holderJwk });
    const origin = 'https://verifier.test';
    const request = { protocol: 'openid4vp-v1-unsigned', data };
    const answered = await holder.answerDcApi(request, origin, [credential], `origin:${origin}`, {
      approve: true,
    });
    const vpToken = answered.data.vp_token as Record<string, string[]>;
    const kb = await verifiedKbJwtPayload(vpToken.employee?.[0] ?? '', holder.holderJwk);
    expect(kb.transaction_data_hashes).toEqual(entries.map(sha256Of));
  });
});
