import { type ClaimNode, type ClaimsPath, claimTree, disclosuresForPath } from './claims-path.js';
import { formatOf, type StoredCredential } from './credential-store.js';
import { WalletError } from './errors.js';
import { hasMdocElement, isMdocPath } from './mdoc-claims.js';
import { splitSdJwt } from './sd-jwt.js';

/** A Claims Query (OID4VP §6.3); `intent_to_retain` is the mso_mdoc member (Appendix B.2.4). */
export interface DcqlClaimsQuery {
  id?: string;
  path: ClaimsPath;
  values?: (string | number | boolean)[];
  intent_to_retain?: boolean;
}

/**
 * A Credential Query (OID4VP §6.1); `meta.vct_values` is the dc+sd-jwt member (Appendix B.3.5),
 * `meta.doctype_value` the mso_mdoc one (Appendix B.2.3).
 */
export interface DcqlCredentialQuery {
  id: string;
  format: string;
  multiple?: boolean;
  meta: { vct_values?: string[]; doctype_value?: string; [other: string]: unknown };
  claims?: DcqlClaimsQuery[];
  claim_sets?: string[][];
  require_cryptographic_holder_binding?: boolean;
  [other: string]: unknown;
}

export interface DcqlQuery {
  credentials: DcqlCredentialQuery[];
  credential_sets?: { options: string[][]; required?: boolean }[];
}

/** One credential chosen for a Credential Query, and the disclosures to present with it. */
export interface DcqlMatch {
  queryId: string;
  credential: StoredCredential;
  /** Encoded disclosures of an SD-JWT VC, in the order the issuer gave them; none for an mdoc. */
  disclosures: string[];
  /**
   * The claims queries these disclosures answer (the chosen `claim_sets` option, if any). For an
   * mdoc, their paths are the data elements to disclose, each [namespace, element].
   */
  claims: DcqlClaimsQuery[];
}

/** Picks among several stored credentials that answer one query; the first by default. */
export type ChooseCredential = (queryId: string, candidates: StoredCredential[]) => StoredCredential;

const ID = /^[A-Za-z0-9_-]+$/;

/** The stored credentials cannot answer the query; the verifier is owed `access_denied` (§8.5). */
export class UnanswerableQueryError extends WalletError {
  override name = 'UnanswerableQueryError';
  readonly error = 'access_denied';
}

/**
 * Answers a DCQL query from the stored credentials (OID4VP §6.4): a dc+sd-jwt credential whose `vct`
 * is one of `meta.vct_values`, or an mso_mdoc one whose doctype is `meta.doctype_value`, disclosing
 * exactly the claims the query selects (the first satisfiable `claim_sets` option; nothing
 * selectively disclosable when `claims` is absent) and nothing else.
 * `credential_sets` decide which queries must be answered. Throws UnanswerableQueryError when the
 * required ones cannot be, since then no credential may be returned at all (§6.4.2).
 */
export function selectForDcql(
  query: DcqlQuery,
  credentials: StoredCredential[],
  choose: ChooseCredential = (_id, candidates) => candidates[0] as StoredCredential,
): Record<string, DcqlMatch> {
  const queries = validateDcqlQuery(query);
  const trees = new Map<string, ClaimNode>();
  for (const c of credentials) if (c.format !== 'mso_mdoc') trees.set(c.id, claimTree(c.compact));
  type Answer = { credential: StoredCredential; disclosures: Set<string>; claims: DcqlClaimsQuery[] };
  const answers = new Map<string, Answer[]>();
  for (const q of queries) {
    const answered = credentials
      .filter((c) => isOfQueriedType(q, c))
      .flatMap((credential) => {
        // An mdoc element is disclosed whole, with nothing else to reveal it: no disclosures.
        const find: FindClaim =
          credential.format === 'mso_mdoc'
            ? (c) => (hasMdocElement(credential, c) ? new Set() : undefined)
            : (c) => disclosuresForPath(trees.get(credential.id) as ClaimNode, c.path, c.values);
        const found = claimsFor(q, find);
        return found ? [{ credential, ...found }] : [];
      });
    if (answered.length) answers.set(q.id, answered);
  }
  const wanted = query.credential_sets
    ? query.credential_sets.flatMap((set) => {
        const option = set.options.find((ids) => ids.every((id) => answers.has(id)));
        if (!option && set.required !== false)
          throw new UnanswerableQueryError(`no stored credentials satisfy ${JSON.stringify(set.options)}`);
        return option ?? [];
      })
    : queries.map((q) => q.id);
  const result: Record<string, DcqlMatch> = {};
  for (const id of new Set(wanted)) {
    const answered = answers.get(id);
    if (!answered) throw new UnanswerableQueryError(`no stored credential satisfies credential query ${id}`);
    const credential = choose(
      id,
      answered.map((a) => a.credential),
    );
    const picked = answered.find((a) => a.credential === credential);
    if (!picked) throw new WalletError(`the chosen credential does not satisfy credential query ${id}`);
    const order = credential.format === 'mso_mdoc' ? [] : splitSdJwt(credential.compact).disclosures;
    const disclosures = order.filter((d) => picked.disclosures.has(d));
    result[id] = { queryId: id, credential, disclosures, claims: picked.claims };
  }
  return result;
}

/** Whether the credential is of the format and type a Credential Query asks for (§6.1, B.2.3, B.3.5). */
function isOfQueriedType(q: DcqlCredentialQuery, c: StoredCredential): boolean {
  if (q.format !== formatOf(c)) return false;
  return c.format === 'mso_mdoc' ? q.meta.doctype_value === c.doctype : !!q.meta.vct_values?.includes(c.vct);
}

/** The disclosures revealing one claim of a credential, or undefined when it does not have it. */
type FindClaim = (claim: DcqlClaimsQuery) => Set<string> | undefined;

/** The disclosures answering one query from one credential, or undefined when it cannot (§6.4.1). */
function claimsFor(
  q: DcqlCredentialQuery,
  find: FindClaim,
): { disclosures: Set<string>; claims: DcqlClaimsQuery[] } | undefined {
  if (!q.claims) return { disclosures: new Set(), claims: [] };
  const seen = new Set<string>();
  // Duplicate claim queries are ignored (§6.1).
  const claims = q.claims.filter(
    (c) => !seen.has(JSON.stringify(c.path)) && seen.add(JSON.stringify(c.path)),
  );
  const union = (selected: DcqlClaimsQuery[]) => {
    const out = new Set<string>();
    for (const c of selected) {
      const found = find(c);
      if (!found) return undefined;
      for (const d of found) out.add(d);
    }
    return { disclosures: out, claims: selected };
  };
  if (!q.claim_sets) return union(claims);
  for (const option of q.claim_sets) {
    const found = union(claims.filter((c) => c.id !== undefined && option.includes(c.id)));
    if (found) return found;
  }
  return undefined;
}

/** The structural rules of §6 that matter for answering; anything else unknown is ignored (§6). */
function validateDcqlQuery(query: DcqlQuery): DcqlCredentialQuery[] {
  const list = query?.credentials;
  if (!Array.isArray(list) || list.length === 0) throw new WalletError('dcql_query has no credentials');
  const ids = new Set<string>();
  for (const q of list) {
    if (typeof q?.id !== 'string' || !ID.test(q.id) || ids.has(q.id))
      throw new WalletError(
        `dcql_query: credential query id ${String(q?.id)} is missing, malformed or repeated`,
      );
    ids.add(q.id);
    if (typeof q.format !== 'string' || !q.meta || typeof q.meta !== 'object')
      throw new WalletError(`dcql_query: credential query ${q.id} needs format and meta`);
    if (q.format === 'dc+sd-jwt' && !Array.isArray(q.meta.vct_values))
      throw new WalletError(`dcql_query: credential query ${q.id} has no meta.vct_values`);
    if (q.format === 'mso_mdoc' && typeof q.meta.doctype_value !== 'string')
      throw new WalletError(`dcql_query: credential query ${q.id} has no meta.doctype_value`);
    if (q.claim_sets && !q.claims) throw new WalletError(`dcql_query: ${q.id} has claim_sets without claims`);
    for (const c of q.claims ?? [])
      if (!Array.isArray(c?.path) || c.path.length === 0)
        throw new WalletError(`dcql_query: a claims query of ${q.id} has no path`);
      else if (q.format === 'mso_mdoc' && !isMdocPath(c.path))
        throw new WalletError(`dcql_query: a claims path of ${q.id} is not [namespace, element]`);
  }
  for (const set of query.credential_sets ?? [])
    if (!set.options?.every((o) => Array.isArray(o) && o.every((id) => ids.has(id))))
      throw new WalletError('dcql_query: a credential set names an unknown credential query');
  return list;
}
