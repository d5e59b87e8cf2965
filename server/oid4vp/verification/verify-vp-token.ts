import { DcqlQuery } from '../../../contract/oid4vp/dcql-query.js';
import { credentialFormat } from '../../formats/credential-formats.js';
import { checkProfileFormat } from './check-haip-profile.js';
import { checkTransactionData } from './check-transaction-data.js';
import { isObject } from './jws.js';
import { checkCredentialSets } from './match-dcql.js';
import { check, inQuery, reject } from './presentation-error.js';
import {
  resolveChecks,
  type VerificationContext,
  type VerifiedCredential,
  type VerifiedPresentation,
} from './types.js';

/**
 * The `vp_token` as received: the JSON object itself, or its JSON text (as a `direct_post` form
 * field arrives). OID4VP 1.0 §8.1: keyed by Credential Query id, each value a non-empty array.
 */
function parseVpToken(vpToken: unknown): Record<string, unknown[]> {
  let token = vpToken;
  if (typeof token === 'string') {
    try {
      token = JSON.parse(token);
    } catch {
      reject('malformed', 'vp_token is not JSON');
    }
  }
  check(isObject(token), 'malformed', 'vp_token is not a JSON object keyed by credential query id');
  for (const [id, value] of Object.entries(token))
    check(
      Array.isArray(value) && value.length > 0,
      'malformed',
      `vp_token.${id} is not a non-empty array of presentations`,
    );
  return token as Record<string, unknown[]>;
}

/**
 * Verifies a VP Token against the DCQL query of the session (OID4VP 1.0 §8.6): every entry answers a
 * Credential Query of the query (an unknown id is refused), with one presentation unless `multiple`;
 * each presentation is verified in full by its format (signature, trusted issuer, disclosures,
 * holder binding to `nonce` and `clientId`, freshness, type, validity, requested claims, status); and
 * the presentations together meet `credential_sets` (or, without it, cover every Credential Query).
 *
 * Resolves with the verified credentials, or rejects with a PresentationError on the first failure
 * (a failed presentation fails the whole response: the verifier refuses partial answers). Anything
 * unexpected from inside is wrapped as `malformed`. An invalid `dcqlQuery` is the caller's bug and
 * throws a TypeError.
 */
export async function verifyVpToken(
  vpToken: unknown,
  dcqlQuery: DcqlQuery,
  ctx: VerificationContext,
): Promise<VerifiedPresentation> {
  const parsedQuery = DcqlQuery.safeParse(dcqlQuery);
  if (!parsedQuery.success) throw new TypeError(`invalid DCQL query: ${parsedQuery.error.message}`);
  const query = parsedQuery.data;
  const checks = resolveChecks(ctx);
  const token = parseVpToken(vpToken);
  for (const id of Object.keys(token))
    check(
      query.credentials.some((c) => c.id === id),
      'malformed',
      `vp_token answers ${id}, which the query does not ask for`,
    );
  checkCredentialSets(query, new Set(Object.keys(token)));

  const credentials: VerifiedCredential[] = [];
  for (const credentialQuery of query.credentials) {
    const { id } = credentialQuery;
    const presentations = Object.hasOwn(token, id) ? token[id] : undefined;
    if (!presentations) continue;
    try {
      check(
        credentialQuery.multiple === true || presentations.length === 1,
        'malformed',
        `${presentations.length} presentations, but multiple is not true`,
      );
      const format = credentialFormat(credentialQuery.format);
      check(format, 'unsupported_format', `format ${credentialQuery.format} is not supported`);
      checkProfileFormat(format, checks);
      for (const presentation of presentations)
        credentials.push(await format.verifyPresentation(presentation, credentialQuery, checks));
    } catch (e) {
      throw inQuery(id, e);
    }
  }
  checkTransactionData(credentials, checks);
  return { credentials };
}
