import type { ClaimsPath } from './claims-path.js';
import type { StoredMdoc } from './credential-store.js';

/** A Claims Query as an mdoc reads it; `intent_to_retain` is the mdoc member (OID4VP B.2.4). */
interface MdocClaimsQuery {
  path: ClaimsPath;
  values?: unknown[];
  intent_to_retain?: boolean;
}

/** A claims path pointer into an mdoc: exactly a namespace and a data element identifier (§7.2). */
export const isMdocPath = (path: ClaimsPath): path is [string, string] =>
  path.length === 2 && path.every((c) => typeof c === 'string');

/**
 * Whether the mdoc has the data element the claim names, with one of `values` when given (§6.3,
 * compared as JSON-safe values, which text, numbers and booleans are as issued). A path that is
 * not [namespace, element] selects nothing (§7.2: processing aborts with an error).
 */
export function hasMdocElement(mdoc: Pick<StoredMdoc, 'claims'>, claim: MdocClaimsQuery): boolean {
  if (!isMdocPath(claim.path)) return false;
  const [namespace, element] = claim.path;
  const elements = mdoc.claims[namespace];
  if (!elements || !Object.hasOwn(elements, element)) return false;
  return claim.values === undefined || claim.values.some((v) => v === elements[element]);
}

/**
 * The data elements to disclose for the chosen claims, as an ItemsRequest's nameSpaces holds
 * them: namespace → element → IntentToRetain (false when the verifier made no statement).
 */
export function mdocItemsToDisclose(claims: MdocClaimsQuery[]): Record<string, Record<string, boolean>> {
  const items: Record<string, Record<string, boolean>> = {};
  for (const claim of claims) {
    if (!isMdocPath(claim.path)) continue;
    const [namespace, element] = claim.path;
    items[namespace] = { ...items[namespace], [element]: claim.intent_to_retain === true };
  }
  return items;
}
