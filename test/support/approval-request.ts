import { createHash } from 'node:crypto';
import { Openid4vpVerifier } from '@openid4vc/openid4vp';
import { compactVerify, importJWK, type JWK } from 'jose';
import { inMemoryVerifier } from './in-memory-verifier.js';
import { VCT } from './oid4vp-fixtures.js';

/**
 * Requests that ask the holder to approve something (OID4VP §8.4 transaction data of type
 * urn:credservice:approval:1), made by the in-memory verifier for the holders' unit tests, and the
 * checks of what comes back: the KB-JWT and its transaction_data_hashes.
 */

export const APPROVAL = {
  type: 'urn:credservice:approval:1',
  credential_ids: ['employee'],
  transaction_data_hashes_alg: ['sha-256'],
  subject: 'PO-2026-0042',
  description: 'Purchase order: 40 laptops for the Madrid office',
  amount: { value: '12400.00', currency: 'EUR' },
};

/** As a verifier sends it: JSON, then base64url. */
export const encodeTransactionData = (data: unknown) =>
  Buffer.from(JSON.stringify(data)).toString('base64url');

/** A query for the fixtures' SD-JWT VC (oid4vp-fixtures `issue`), asking for the given name. */
export const EMPLOYEE_QUERY = {
  id: 'employee',
  format: 'dc+sd-jwt',
  meta: { vct_values: [VCT] },
  claims: [{ path: ['given_name'] }],
};

export const SD_JWT_FORMATS = {
  'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
};

/** The in-memory verifier, whose requests ask for SD-JWT VCs and carry `transactionData` when given. */
export async function approvalVerifier() {
  const verifier = await inMemoryVerifier();
  const request = (
    transactionData: unknown[] | undefined,
    dcqlQuery: unknown = { credentials: [EMPLOYEE_QUERY] },
  ) =>
    verifier.requestObject(dcqlQuery, {
      client_metadata: { vp_formats_supported: SD_JWT_FORMATS, jwks: { keys: [verifier.encryptionJwk] } },
      ...(transactionData ? { transaction_data: transactionData } : {}),
    });
  return { ...verifier, request };
}

/** What B.3.3 says a hash is, computed here and not by a holder: base64url(SHA-256(string)). */
export const sha256Of = (s: string) => createHash('sha256').update(s).digest('base64url');

/** The KB-JWT payload of an SD-JWT+KB presentation, after checking its signature with `holderJwk`. */
export async function verifiedKbJwtPayload(presentation: string, holderJwk: JWK) {
  const kbJwt = presentation.slice(presentation.lastIndexOf('~') + 1);
  const { payload } = await compactVerify(kbJwt, await importJWK(holderJwk, 'ES256'));
  return JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
}

/**
 * The hashes checked by @openid4vc/openid4vp's verifier (verifyTransactionData), a second opinion
 * that does not share our code: throws when an entry has no matching hash.
 */
export async function verifyWithLibrary(transactionData: string[], kbPayloads: Record<string, unknown>) {
  const verifier = new Openid4vpVerifier({
    callbacks: { hash: (data: Uint8Array) => createHash('sha256').update(data).digest() } as never,
  });
  const credentials = Object.fromEntries(
    Object.entries(kbPayloads).map(([id, kb]) => [
      id,
      [kb as { transaction_data_hashes: string[]; transaction_data_hashes_alg?: string }],
    ]),
  );
  return verifier.verifyTransactionData({ transactionData, credentials: credentials as never });
}
