import type { JWK } from 'jose';
import { type CredentialQuery, DcqlQuery } from '../../../contract/oid4vp/dcql-query.js';
import { reject } from '../../oid4vp/verification/presentation-error.js';
import { type AnnexCElement, type AnnexCRequest, createAnnexCRequest } from './create-annex-c-request.js';
import { openAnnexCResponse } from './open-annex-c-response.js';

/**
 * The one mso_mdoc Credential Query a session's DCQL query must consist of for ISO/IEC 18013-7
 * Annex C to ask it, and the elements it names; undefined when Annex C cannot express the query.
 * A DeviceRequest has one DocRequest per doctype with a fixed list of elements and nothing else, so:
 * exactly one query (no credential_sets: with one query they would only make it optional), of
 * format mso_mdoc, not `multiple`, with `claims` (a DocRequest cannot say "every element") that are
 * all `[namespace, element]`, and no `claim_sets` (alternatives have no place in a DocRequest).
 * `values` and `trusted_authorities` only narrow which answer is accepted: the request asks for the
 * same elements without them, and the verifier applies them to the answer as to any other.
 */
function annexCQueryOf(dcqlQuery: unknown): CredentialQuery | undefined {
  const parsed = DcqlQuery.safeParse(dcqlQuery);
  if (!parsed.success || parsed.data.credential_sets || parsed.data.credentials.length !== 1)
    return undefined;
  const [query] = parsed.data.credentials;
  if (query?.format !== 'mso_mdoc' || query.multiple || query.claim_sets || !query.claims) return undefined;
  const namedElements = query.claims.every(
    (c) => c.path.length === 2 && c.path.every((segment) => typeof segment === 'string'),
  );
  return namedElements && query.meta.doctype_value ? query : undefined;
}

/** The query's claims as DocRequest elements, with the IntentToRetain OID4VP B.2.4 lets a claim carry. */
const elementsOf = (query: CredentialQuery): AnnexCElement[] =>
  (query.claims ?? []).map((c) => ({
    namespace: String(c.path[0]),
    element: String(c.path[1]),
    intentToRetain: (c as { intent_to_retain?: unknown }).intent_to_retain === true,
  }));

/**
 * An Annex C request (`org-iso-mdoc`) for a session's DCQL query, or undefined when the query is not
 * one Annex C can carry (see annexCQueryOf). The caller keeps `encryptionInfo` and the recipient key
 * with the session: the answer is opened and its transcript rebuilt from them.
 */
export function annexCRequestForQuery(dcqlQuery: unknown): AnnexCRequest | undefined {
  const query = annexCQueryOf(dcqlQuery);
  if (!query) return undefined;
  return createAnnexCRequest({ doctype: query.meta.doctype_value as string, elements: elementsOf(query) });
}

/**
 * The `vp_token` an Annex C answer stands for: the HPKE-sealed DeviceResponse opened for this
 * session's EncryptionInfo and the page's origin, as the one presentation of the session's one
 * mso_mdoc query, so that it is verified through the format like any other mdoc presentation (with
 * `transaction.annexC`, which makes the device signature cover the `dcapi` transcript). Throws a
 * PresentationError `malformed` when the answer does not open, or the query is none Annex C asks.
 */
export async function openAnnexCPresentation(o: {
  response: string;
  encryptionInfo: string;
  origin: string;
  recipientPrivateKey: JWK;
  dcqlQuery: unknown;
}): Promise<Record<string, string[]>> {
  const query = annexCQueryOf(o.dcqlQuery);
  if (!query) return reject('malformed', 'the session’s query is none an Annex C request asks');
  const { deviceResponse } = await openAnnexCResponse(o);
  return { [query.id]: [Buffer.from(deviceResponse).toString('base64url')] };
}
