import {
  type ClientMetadata,
  checkClientMetadata,
  checkTimes,
  credentialsAcceptedBy,
  type RequestValidationOptions,
} from './authorization-request.js';
import type { StoredCredential } from './credential-store.js';
import { encryptResponse } from './encrypt-response.js';
import { WalletError } from './errors.js';
import type { HolderCrypto } from './holder-crypto.js';
import { asObject } from './http.js';
import { limitDisclosures } from './limit-disclosures.js';
import { dcApiSessionTranscript } from './mdoc-presentation.js';
import type { PresentOptions } from './present-credentials.js';
import { createPresentation, type PresentationBinding } from './present-match.js';
import { verifyRequestSignature } from './request-object.js';
import { type DcqlMatch, type DcqlQuery, selectForDcql, UnanswerableQueryError } from './select-for-dcql.js';
import { readTransactionData } from './transaction-data.js';
import { assignTransactionDataHashes, requireApproval } from './transaction-data-hashes.js';

/** One entry of `navigator.credentials.get({ digital: { requests } })` (OID4VP 1.0 Appendix A.1). */
export interface DigitalCredentialRequest {
  protocol: string;
  data: Record<string, unknown>;
}

/** A verified request received over the Digital Credentials API. */
export interface DcApiAuthorizationRequest {
  /** Signed requests only: unsigned ones have none, and the origin identifies the verifier. */
  client_id?: string;
  response_mode: 'dc_api' | 'dc_api.jwt';
  nonce: string;
  dcql_query: DcqlQuery;
  client_metadata?: ClientMetadata;
  transaction_data?: string[];
}

/**
 * Reads a request as the platform hands it to the wallet with the caller's `origin` (Appendix A):
 * `openid4vp-v1-signed` carries `{ request }`, a Request Object verified as over a link (x509
 * client identifier, signature), whose `expected_origins` must hold `origin` exactly (A.2:
 * `invalid_request` otherwise, so another site cannot replay it); `openid4vp-v1-unsigned` carries
 * the parameters, with any client_id and expected_origins ignored.
 */
export async function readDcApiRequest(
  request: DigitalCredentialRequest,
  origin: string,
  opts: RequestValidationOptions = {},
): Promise<DcApiAuthorizationRequest> {
  let payload: Record<string, unknown>;
  if (request.protocol === 'openid4vp-v1-signed') {
    if (typeof request.data.request !== 'string') throw new WalletError('a signed request has no request');
    ({ payload } = await verifyRequestSignature(request.data.request, opts));
    const expected = payload.expected_origins;
    if (!Array.isArray(expected) || expected.length === 0)
      throw new WalletError('invalid_request: a signed request must name expected_origins');
    if (!expected.includes(origin))
      throw new WalletError(`invalid_request: origin ${origin} is not one of the expected_origins`);
    checkTimes(payload, opts);
  } else if (request.protocol === 'openid4vp-v1-unsigned') {
    const { client_id: _ignored, expected_origins: _alsoIgnored, ...rest } = request.data;
    payload = rest;
  } else throw new WalletError(`protocol ${request.protocol} is not supported`);
  if (payload.response_type !== 'vp_token')
    throw new WalletError(`response_type ${String(payload.response_type)} is not vp_token`);
  if (payload.response_mode !== 'dc_api' && payload.response_mode !== 'dc_api.jwt')
    throw new WalletError(`response_mode ${String(payload.response_mode)} is not a DC API mode`);
  if (typeof payload.nonce !== 'string' || !payload.nonce) throw new WalletError('the request has no nonce');
  asObject(payload.dcql_query, 'dcql_query');
  readTransactionData(payload.transaction_data, payload.dcql_query, opts);
  if (payload.client_metadata !== undefined)
    checkClientMetadata(asObject(payload.client_metadata, 'client_metadata'));
  return payload as unknown as DcApiAuthorizationRequest;
}

/**
 * Answers a Digital Credentials API request with the stored credentials: one presentation per
 * answered query, an SD-JWT+KB whose KB-JWT is addressed to `origin:<origin>` (Appendix A.4, also
 * for signed requests) with the nonce, or an mdoc DeviceResponse signed over the B.2.6.2
 * SessionTranscript of the origin and nonce. Returns the DigitalCredential's `data` for the
 * browser to hand back: `{ response }` encrypted to the verifier's key for dc_api.jwt,
 * `{ vp_token }` for dc_api, or `{ error: 'access_denied' }` when nothing answers the query.
 * Transaction data is signed only when `approve` approves it, as over a link.
 */
export async function presentOverDcApi(
  dcRequest: DigitalCredentialRequest,
  origin: string,
  credentials: StoredCredential[],
  crypto: HolderCrypto,
  opts: PresentOptions = {},
) {
  const request = await readDcApiRequest(dcRequest, origin, opts);
  const transactionData = readTransactionData(request.transaction_data, request.dcql_query, opts);
  await requireApproval(transactionData, opts.approve);
  const bad = opts.misbehave ?? {};
  const answer = async (parameters: Record<string, unknown>) =>
    request.response_mode === 'dc_api.jwt'
      ? { response: await encryptResponse(parameters, request.client_metadata) }
      : parameters;
  let matches: Record<string, DcqlMatch>;
  try {
    const accepted = credentialsAcceptedBy(request.client_metadata, credentials);
    matches = selectForDcql(request.dcql_query, accepted, opts.choose);
    if (opts.only) matches = limitDisclosures(matches, opts.only);
  } catch (e) {
    if (!(e instanceof UnanswerableQueryError)) throw e;
    return { request, transactionData, data: await answer({ error: e.error }) };
  }
  const nonce = bad.nonce ?? request.nonce;
  const binding: PresentationBinding = {
    nonce,
    audience: bad.audience ?? `origin:${origin}`,
    sessionTranscript: () => dcApiSessionTranscript({ ...request, nonce }, origin),
    transactionDataHashes: assignTransactionDataHashes(
      transactionData,
      Object.keys(matches),
      bad.transactionData,
    ),
  };
  const vpToken: Record<string, string[]> = {};
  for (const [id, match] of Object.entries(matches))
    vpToken[id] = [await createPresentation(match, binding, crypto, bad)];
  return { request, vpToken, transactionData, data: await answer({ vp_token: vpToken }) };
}
