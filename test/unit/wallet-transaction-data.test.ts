import { describe, expect, it } from 'vitest';
import {
  describeTransactionData,
  HolderWallet,
  InvalidTransactionDataError,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  type PresentOptions,
  type TransactionData,
  TransactionDataNotApprovedError,
} from '../../clients/wallet/src/index.js';
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
import { ISSUER, issue, VCT } from '../support/oid4vp-fixtures.js';

/**
 * Our wallet and OID4VP transaction data (§8.4, B.3.3): it signs the hash of each string as received
 * into the KB-JWT only when approved, refuses what it cannot read, and shows what it is asked.
 * The hashes are checked with node:crypto and by @openid4vc/openid4vp's verifier.
 */
const verifier = await approvalVerifier();
const SECOND = { type: APPROVAL.type, credential_ids: ['employee'], subject: 'PO-7', description: 'Toner' };
const entries = [encodeTransactionData(APPROVAL), encodeTransactionData(SECOND)];

async function ourWallet(requestJwt: string) {
  const served = verifier.serve(requestJwt);
  const crypto = inMemoryHolderCrypto();
  const store = inMemoryCredentialStore();
  const key = await crypto.createKey();
  const compact = await issue({ holderJwk: key.publicJwk });
  await store.save({
    ...{ id: 'c1', format: 'dc+sd-jwt', compact, issuer: ISSUER, vct: VCT, claims: {} },
    ...{ holderKeyId: key.id, receivedAt: new Date() },
  });
  const wallet = new HolderWallet({ crypto, store, http: { fetch: served.fetch } });
  return { wallet, posted: served.posted, holderJwk: key.publicJwk };
}

/** The KB-JWT payloads of what the verifier received, by query id. */
const kbPayloadsOf = async (
  posted: Record<string, string>[],
  holderJwk: Parameters<typeof verifiedKbJwtPayload>[1],
) => {
  const vpToken = JSON.parse(posted[0]?.vp_token ?? '{}') as Record<string, string[]>;
  const payloads: Record<string, Record<string, unknown>> = {};
  for (const [id, [presentation]] of Object.entries(vpToken))
    payloads[id] = await verifiedKbJwtPayload(presentation ?? '', holderJwk);
  return payloads;
};

describe('our wallet answers a request with transaction data', () => {
  it('signs the sha-256 of each string as received, in request order, after showing what it approves', async () => {
    const { wallet, posted, holderJwk } = await ourWallet(await verifier.request(entries));
    let shown: TransactionData[] = [];
    const approve = (list: TransactionData[]) => {
      shown = list;
      return posted.length === 0; // asked before anything is sent
    };
    const result = await wallet.present(verifier.link, { approve });
    expect(shown.map((t) => t.encoded)).toEqual(entries);
    expect(result.transactionData).toEqual([
      { encoded: entries[0], index: 0, data: APPROVAL },
      { encoded: entries[1], index: 1, data: SECOND },
    ]);
    expect(describeTransactionData(shown[0] as TransactionData)).toEqual({
      type: APPROVAL.type,
      credential_ids: ['employee'],
      subject: 'PO-2026-0042',
      description: APPROVAL.description,
      amount: '12400.00 EUR',
    });
    const kb = await kbPayloadsOf(posted, holderJwk);
    expect(kb.employee).toMatchObject({
      transaction_data_hashes: entries.map(sha256Of),
      transaction_data_hashes_alg: 'sha-256',
    });
    const verified = await verifyWithLibrary(entries, kb);
    expect(verified.map((v) => v.credentialId)).toEqual(['employee', 'employee']);
  });

  it('refuses without approval, or when it is declined, and sends nothing; preview shows it', async () => {
    const { wallet, posted } = await ourWallet(await verifier.request(entries));
    for (const options of [{}, { approve: false }, { approve: () => false }] as PresentOptions[]) {
      const refused = await wallet.present(verifier.link, options).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TransactionDataNotApprovedError);
      expect((refused as TransactionDataNotApprovedError).transactionData).toHaveLength(2);
    }
    expect(posted).toEqual([]);
    const preview = await wallet.preview(verifier.link);
    expect(preview.transactionData.map((t) => t.data.subject)).toEqual(['PO-2026-0042', 'PO-7']);
  });

  it('refuses a malformed entry, an unknown type or credential id with invalid_transaction_data', async () => {
    const mdocQuery = { id: 'badge', format: 'mso_mdoc', meta: { doctype_value: 'org.example.badge' } };
    const unbound = { ...EMPLOYEE_QUERY, require_cryptographic_holder_binding: false };
    const cases: [unknown, RegExp, unknown?][] = [
      [[], /not a non-empty array/],
      [['not base64url!'], /not a base64url string/],
      [[Buffer.from('{"type":').toString('base64url')], /not base64url-encoded JSON/],
      [[encodeTransactionData(['a'])], /not a JSON object/],
      [[encodeTransactionData({ ...APPROVAL, type: undefined })], /has no type/],
      [[encodeTransactionData({ ...APPROVAL, type: 'urn:other:1' })], /which this wallet does not know/],
      [[encodeTransactionData({ ...APPROVAL, credential_ids: [] })], /has no credential_ids/],
      [[encodeTransactionData({ ...APPROVAL, credential_ids: ['nope'] })], /names credential query nope/],
      [[encodeTransactionData({ ...APPROVAL, transaction_data_hashes_alg: ['sha-384'] })], /not sha-256/],
      [[encodeTransactionData({ ...APPROVAL, subject: '' })], /has no subject/],
      [[encodeTransactionData({ ...APPROVAL, amount: { value: 12400, currency: 'EUR' } })], /decimal string/],
      [[encodeTransactionData({ ...APPROVAL, amount: { value: '1', currency: 'euro' } })], /ISO 4217/],
      [[encodeTransactionData({ ...APPROVAL, credential_ids: ['badge'] })], /only dc\+sd-jwt/, mdocQuery],
      [[encodeTransactionData(APPROVAL)], /does not require cryptographic holder binding/, unbound],
    ];
    for (const [transactionData, reason, extraQuery] of cases) {
      const queries =
        extraQuery === unbound ? [unbound] : [EMPLOYEE_QUERY, ...(extraQuery ? [extraQuery] : [])];
      const { wallet, posted } = await ourWallet(
        await verifier.request(transactionData as unknown[], { credentials: queries }),
      );
      const refused = await wallet.present(verifier.link, { approve: true }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InvalidTransactionDataError);
      expect(String((refused as Error).message)).toMatch(reason);
      expect((refused as InvalidTransactionDataError).error).toBe('invalid_transaction_data');
      expect(posted).toEqual([]);
    }
  });

  it('takes an unknown type only when the caller names it, and shows its members whole', async () => {
    const other = { type: 'urn:example:payment:1', credential_ids: ['employee'], payee: 'ACME' };
    const { wallet, posted, holderJwk } = await ourWallet(
      await verifier.request([encodeTransactionData(other)]),
    );
    const result = await wallet.present(verifier.link, { approve: true, transactionDataTypes: [other.type] });
    expect(describeTransactionData(result.transactionData[0] as TransactionData)).toEqual({
      type: other.type,
      credential_ids: ['employee'],
      other: { payee: 'ACME' },
    });
    const kb = await kbPayloadsOf(posted, holderJwk);
    expect(kb.employee?.transaction_data_hashes).toEqual([sha256Of(encodeTransactionData(other))]);
  });

  it('hashes into the first presented of several credential_ids; drops or garbles hashes on request', async () => {
    const optional = { ...EMPLOYEE_QUERY, id: 'other', meta: { vct_values: ['urn:not-held'] } };
    const dcql = {
      credentials: [EMPLOYEE_QUERY, optional],
      credential_sets: [{ options: [['employee']] }, { options: [['other']], required: false }],
    };
    const either = encodeTransactionData({ ...APPROVAL, credential_ids: ['other', 'employee'] });
    const { wallet, posted, holderJwk } = await ourWallet(await verifier.request([either], dcql));
    await wallet.present(verifier.link, { approve: true });
    expect((await kbPayloadsOf(posted, holderJwk)).employee?.transaction_data_hashes).toEqual([
      sha256Of(either),
    ]);

    const onlyOther = encodeTransactionData({ ...APPROVAL, credential_ids: ['other'] });
    const unpresented = await ourWallet(await verifier.request([onlyOther], dcql));
    await expect(unpresented.wallet.present(verifier.link, { approve: true })).rejects.toThrow(
      /names no credential query that is presented/,
    );

    for (const transactionData of ['omit', 'wrong'] as const) {
      const bad = await ourWallet(await verifier.request(entries));
      await bad.wallet.present(verifier.link, { approve: true, misbehave: { transactionData } });
      const kb = await kbPayloadsOf(bad.posted, bad.holderJwk);
      if (transactionData === 'omit') expect(kb.employee).not.toHaveProperty('transaction_data_hashes');
      else expect(kb.employee?.transaction_data_hashes).not.toEqual(entries.map(sha256Of));
      await expect(verifyWithLibrary(entries, kb)).rejects.toThrow();
    }
  });

  it('signs over the Digital Credentials API too, once approved', async () => {
    const { wallet, holderJwk } = await ourWallet('');
    const data = {
      response_type: 'vp_token',
      response_mode: 'dc_api',
      nonce: 'n-dc-1',
      dcql_query: { credentials: [EMPLOYEE_QUERY] },
      client_metadata: { vp_formats_supported: SD_JWT_FORMATS },
      transaction_data: entries,
    };
    const request = { protocol: 'openid4vp-v1-unsigned', data };
    await expect(wallet.answerDcApi(request, 'https://verifier.test')).rejects.toBeInstanceOf(
      TransactionDataNotApprovedError,
    );
    const answered = await wallet.answerDcApi(request, 'https://verifier.test', { approve: true });
    const kb = await verifiedKbJwtPayload(answered.vpToken?.employee?.[0] ?? '', holderJwk);
    expect(kb).toMatchObject({
      aud: 'origin:https://verifier.test',
      transaction_data_hashes: entries.map(sha256Of),
    });
  });
});
