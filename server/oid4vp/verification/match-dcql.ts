import type {
  ClaimsPathPointer,
  ClaimsQuery,
  CredentialQuery,
  DcqlQuery,
} from '../../../contract/oid4vp/dcql-query.js';
import { isObject } from './jws.js';
import { check, PresentationError } from './presentation-error.js';

/**
 * Processes a claims path pointer against a JSON credential (OID4VP 1.0 §7.1.1): the selected
 * elements, or undefined where the spec says "abort processing and return an error" (a component
 * applied to the wrong kind of value, or an empty selection).
 */
export function selectClaims(root: unknown, path: ClaimsPathPointer): unknown[] | undefined {
  let selected: unknown[] = [root];
  for (const component of path) {
    const next: unknown[] = [];
    for (const el of selected) {
      if (typeof component === 'string') {
        if (!isObject(el)) return undefined;
        if (Object.hasOwn(el, component)) next.push(el[component]);
      } else if (component === null) {
        if (!Array.isArray(el)) return undefined;
        next.push(...el);
      } else if (Number.isInteger(component) && component >= 0) {
        if (!Array.isArray(el)) return undefined;
        if (component < el.length) next.push(el[component]);
      } else return undefined;
    }
    selected = next;
  }
  return selected.length > 0 ? selected : undefined;
}

/**
 * A claims query is satisfied when its path selects something and, with `values`, one selected
 * element equals one of them in type and value (§6.4.1: a claim whose value does not match counts as
 * absent).
 */
export function claimSatisfied(claims: Record<string, unknown>, query: ClaimsQuery): boolean {
  const found = selectClaims(claims, query.path);
  if (!found) return false;
  const values = query.values;
  return !values || found.some((v) => values.some((expected) => v === expected));
}

const describe = (q: ClaimsQuery) =>
  JSON.stringify(q.path) + (q.values ? ` = one of ${JSON.stringify(q.values)}` : '');

/**
 * Checks the disclosed claims against what the Credential Query asked (§6.4.1) and returns the
 * claims queries that were satisfied: every `claims` entry without `claim_sets`; the first satisfiable
 * option of `claim_sets` with it (the verifier accepts any option, as the wallet may choose, but
 * reports the most preferred one met); nothing without `claims`. Throws `missing_claims`.
 */
export function checkRequestedClaims(claims: Record<string, unknown>, query: CredentialQuery): ClaimsQuery[] {
  const requested = query.claims;
  if (!requested) return [];
  if (!query.claim_sets) {
    const missing = requested.filter((q) => !claimSatisfied(claims, q));
    check(missing.length === 0, 'missing_claims', `not disclosed: ${missing.map(describe).join(', ')}`);
    return requested;
  }
  for (const option of query.claim_sets) {
    const set = option.map((id) => requested.find((q) => q.id === id));
    if (set.every((q) => q !== undefined && claimSatisfied(claims, q))) return set as ClaimsQuery[];
  }
  throw new PresentationError('missing_claims', 'the disclosed claims satisfy none of the claim_sets');
}

/**
 * Which Credential Queries must have a presentation (§6.4.2): all of them without `credential_sets`;
 * with it, every required set needs one option whose queries all have a presentation. Optional sets
 * and queries outside any set impose nothing. Throws `missing_credential`.
 */
export function checkCredentialSets(query: DcqlQuery, presented: ReadonlySet<string>): void {
  if (!query.credential_sets) {
    const missing = query.credentials.filter((c) => !presented.has(c.id)).map((c) => c.id);
    check(missing.length === 0, 'missing_credential', `no presentation for ${missing.join(', ')}`);
    return;
  }
  for (const set of query.credential_sets) {
    if (set.required === false) continue;
    const met = set.options.some((option) => option.every((id) => presented.has(id)));
    check(
      met,
      'missing_credential',
      `no option of a required credential set is presented: ${JSON.stringify(set.options)}`,
    );
  }
}

/** `vct` or one of `aka_vcts` (SD-JWT VC, "Other Credential Types") among `meta.vct_values`. Throws `wrong_vct`. */
export function checkVct(vct: string, akaVcts: unknown, query: CredentialQuery): void {
  const accepted = query.meta.vct_values;
  if (!accepted) return;
  const types = [vct, ...(Array.isArray(akaVcts) ? akaVcts.filter((t) => typeof t === 'string') : [])];
  check(
    types.some((t) => accepted.includes(t)),
    'wrong_vct',
    `vct ${vct} is not one of ${accepted.join(', ')}`,
  );
}

const VC_V1_BASE = 'https://www.w3.org/2018/credentials#';

/**
 * `type` of a W3C credential against `meta.type_values` (§B.1.1): some alternative's types are all
 * present. No JSON-LD processing: terms compare as written, except that the base types of the VCDM
 * contexts also match their expanded IRIs (`VerifiableCredential` and
 * `https://www.w3.org/2018/credentials#VerifiableCredential`). Throws `wrong_type`.
 */
export function checkW3cType(types: string[], query: CredentialQuery): void {
  const accepted = query.meta.type_values;
  if (!accepted) return;
  const expanded = new Set(types.flatMap((t) => (t === 'VerifiableCredential' ? [t, VC_V1_BASE + t] : [t])));
  check(
    accepted.some((alternative) => alternative.every((t) => expanded.has(t))),
    'wrong_type',
    `type ${JSON.stringify(types)} matches none of ${JSON.stringify(accepted)}`,
  );
}
