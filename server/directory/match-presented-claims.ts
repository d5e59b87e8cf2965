import type { ClaimMatch } from '../../contract/admin/holder-sign-in-presentation.js';
import { isMissing, valuesMatch } from './compare-claim-value.js';
import { readAttribute } from './scim-attribute-value.js';

/** What a holder is matched against: the issuance payload, and the SCIM user when there is one. */
export interface HolderRecord {
  payload?: Record<string, unknown> | undefined;
  scim?: Record<string, unknown> | undefined;
}

export type ClaimResult = 'matched' | 'mismatched' | 'missing';

/** One rule's outcome, as the audit log keeps it: where it looked and what it found, never the values. */
export interface ClaimMatchResult {
  claim: ClaimMatch['claim'];
  source: ClaimMatch['source'];
  field: string;
  compare: ClaimMatch['compare'];
  result: ClaimResult;
}

/** A claims path pointer into presented claims (objects by name, arrays by index). */
function atPath(claims: unknown, path: readonly (string | number)[]): unknown {
  let node = claims;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node) !== (typeof step === 'number')) return undefined;
    if (!Object.hasOwn(node, step)) return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** A dotted payload path (`mandatee.lastName`, `power.0.function`): numbers index arrays. */
function atPayloadField(payload: unknown, field: string): unknown {
  let node = payload;
  for (const s of field.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    const key = Array.isArray(node) && /^\d+$/.test(s) ? Number(s) : s;
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function known(m: ClaimMatch, record: HolderRecord): unknown {
  if (m.source === 'payload') return record.payload ? atPayloadField(record.payload, m.field) : undefined;
  return record.scim ? readAttribute(record.scim, m.field) : undefined;
}

/**
 * Applies a tenant's rule to a verified presentation's claims: every entry must match for the holder
 * to be signed in. A claim the wallet did not disclose, or a field the record lacks, is `missing`,
 * which refuses as a mismatch does: an empty field never vouches for anyone.
 */
export function matchPresentedClaims(
  rule: readonly ClaimMatch[],
  claims: Record<string, unknown>,
  record: HolderRecord,
): { matched: boolean; results: ClaimMatchResult[] } {
  const results = rule.map((m): ClaimMatchResult => {
    const presented = atPath(claims, m.claim);
    const expected = known(m, record);
    const result: ClaimResult =
      isMissing(presented) || isMissing(expected)
        ? 'missing'
        : valuesMatch(m.compare, presented, expected)
          ? 'matched'
          : 'mismatched';
    return { claim: m.claim, source: m.source, field: m.field, compare: m.compare, result };
  });
  return { matched: results.every((r) => r.result === 'matched'), results };
}
