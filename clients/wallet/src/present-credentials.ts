import {
  type AuthorizationRequest,
  credentialsAcceptedBy,
  type RequestValidationOptions,
} from './authorization-request.js';
import type { StoredCredential } from './credential-store.js';
import { WalletError } from './errors.js';
import type { HolderCrypto } from './holder-crypto.js';
import { limitDisclosures } from './limit-disclosures.js';
import { redirectSessionTranscript } from './mdoc-presentation.js';
import { createPresentation, type PresentationBinding } from './present-match.js';
import { fetchRequestObject } from './request-object.js';
import {
  type ChooseCredential,
  type DcqlMatch,
  selectForDcql,
  UnanswerableQueryError,
} from './select-for-dcql.js';
import {
  type AuthorizationResponseParameters,
  encodeAuthorizationResponse,
  type SubmittedResponse,
  submitAuthorizationResponse,
} from './submit-response.js';
import { readTransactionData, type TransactionData } from './transaction-data.js';
import {
  type ApproveTransactionData,
  assignTransactionDataHashes,
  requireApproval,
  type TransactionDataMisbehaviour,
} from './transaction-data-hashes.js';

/** Ways to present wrongly on purpose, so that tests can show the verifier rejects each. */
export interface PresentationMisbehaviour {
  /** KB-JWT `nonce` (an mdoc's SessionTranscript nonce) other than the request's. */
  nonce?: string;
  /** KB-JWT `aud` (an mdoc's SessionTranscript client_id) other than the full client_id. */
  audience?: string;
  /** KB-JWT `iat`, e.g. far in the past or the future; SD-JWT only. */
  issuedAt?: number;
  /** `state` other than the request's; null leaves it out. */
  state?: string | null;
  /** Alter the first presented disclosure (see createSdJwtPresentation); SD-JWT only. */
  tamperDisclosure?: boolean;
  /** Present the SD-JWT without a KB-JWT; SD-JWT only. */
  skipKeyBinding?: boolean;
  /** Disclose every claim of the credential, not only those the query selects. */
  discloseAll?: boolean;
  /** POST this body (the `body` of an earlier result) to this request's response_uri instead. */
  replayBody?: string;
  /** Leave the transaction data hashes out of the KB-JWT, or hash the wrong string (still needs `approve`). */
  transactionData?: TransactionDataMisbehaviour;
}

export interface PresentOptions extends RequestValidationOptions {
  /** Picks a credential when several answer a query (the End-User's choice); the first by default. */
  choose?: ChooseCredential;
  /**
   * Disclose only these of the requested claims: dotted paths such as `mandatee.email`, for an
   * mdoc `namespace.element` or the element name alone.
   */
  only?: string[];
  /** Tell the verifier `access_denied` when the stored credentials cannot answer (default true). */
  declineWhenUnanswerable?: boolean;
  /**
   * Consent to sign the request's `transaction_data` (§8.4) into the KB-JWTs; without it a request
   * carrying any is refused before anything is sent: the wallet never signs silently.
   */
  approve?: ApproveTransactionData;
  misbehave?: PresentationMisbehaviour;
}

export interface PresentationResult extends SubmittedResponse {
  request: AuthorizationRequest;
  /** What was presented, keyed by credential query id; absent when a body was replayed. */
  vpToken?: Record<string, string[]>;
  matches?: Record<string, DcqlMatch>;
  /** The request's transaction data, signed as approved (a replayed body signs nothing); often empty. */
  transactionData: TransactionData[];
}

/** The wallet could not answer the query and told the verifier so (OID4VP §8.5 `access_denied`). */
export class PresentationDeclinedError extends WalletError {
  override name = 'PresentationDeclinedError';
  constructor(
    message: string,
    readonly redirectUri?: string,
  ) {
    super(message);
  }
}

/**
 * What `presentCredentials` would present for the link, with nothing sent: the verified Request
 * Object, per credential query the credential and the claims and disclosures chosen, and the
 * transaction data the End-User would be asked to approve (no approval is needed to preview).
 */
export async function previewPresentation(
  authorizationRequestUri: string,
  credentials: StoredCredential[],
  opts: PresentOptions = {},
): Promise<{
  request: AuthorizationRequest;
  matches: Record<string, DcqlMatch>;
  transactionData: TransactionData[];
}> {
  const request = await fetchRequestObject(authorizationRequestUri, opts);
  const transactionData = readTransactionData(request.transaction_data, request.dcql_query, opts);
  const accepted = credentialsAcceptedBy(request.client_metadata, credentials);
  const matches = selectForDcql(request.dcql_query, accepted, opts.choose);
  return { request, matches: opts.only ? limitDisclosures(matches, opts.only) : matches, transactionData };
}

/**
 * The whole OID4VP flow for an `openid4vp://` link: fetch and verify the Request Object, answer its
 * DCQL query from `credentials`, build one presentation per answered query (an SD-JWT+KB bound to
 * the request's nonce and full client_id, or an mdoc DeviceResponse signed over the B.2.6.1
 * SessionTranscript), and POST the response (encrypted for direct_post.jwt). Transaction data is
 * signed into the KB-JWTs only when `approve` approves it; otherwise TransactionDataNotApprovedError.
 */
export async function presentCredentials(
  authorizationRequestUri: string,
  credentials: StoredCredential[],
  crypto: HolderCrypto,
  opts: PresentOptions = {},
): Promise<PresentationResult> {
  const request = await fetchRequestObject(authorizationRequestUri, opts);
  const bad = opts.misbehave ?? {};
  const transactionData = readTransactionData(request.transaction_data, request.dcql_query, opts);
  if (bad.replayBody !== undefined) {
    const sent = await submitAuthorizationResponse(request.response_uri, bad.replayBody, opts);
    return { request, transactionData, ...sent };
  }
  await requireApproval(transactionData, opts.approve);
  const state = bad.state === undefined ? request.state : (bad.state ?? undefined);
  const send = async (parameters: AuthorizationResponseParameters) =>
    submitAuthorizationResponse(
      request.response_uri,
      await encodeAuthorizationResponse(request, {
        ...parameters,
        ...(state !== undefined ? { state } : {}),
      }),
      opts,
    );

  let matches: Record<string, DcqlMatch>;
  try {
    const accepted = credentialsAcceptedBy(request.client_metadata, credentials);
    matches = selectForDcql(request.dcql_query, accepted, opts.choose);
    if (opts.only) matches = limitDisclosures(matches, opts.only);
  } catch (e) {
    if (!(e instanceof UnanswerableQueryError) || opts.declineWhenUnanswerable === false) throw e;
    const sent = await send({ error: e.error, error_description: e.message });
    throw new PresentationDeclinedError(e.message, sent.redirectUri);
  }
  const nonce = bad.nonce ?? request.nonce;
  const audience = bad.audience ?? request.client_id;
  const binding: PresentationBinding = {
    nonce,
    audience,
    // A wrong nonce or audience goes into an mdoc's transcript as it would into a KB-JWT.
    sessionTranscript: () => redirectSessionTranscript({ ...request, nonce, client_id: audience }),
    transactionDataHashes: assignTransactionDataHashes(
      transactionData,
      Object.keys(matches),
      bad.transactionData,
    ),
  };
  const vpToken: Record<string, string[]> = {};
  // One presentation per query: `multiple` permits more but never requires them (§8.1).
  for (const [id, match] of Object.entries(matches))
    vpToken[id] = [await createPresentation(match, binding, crypto, bad)];
  return { request, vpToken, matches, transactionData, ...(await send({ vp_token: vpToken })) };
}
