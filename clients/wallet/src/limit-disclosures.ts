import { type ClaimsPath, claimTree, disclosuresForPath } from './claims-path.js';
import { WalletError } from './errors.js';
import type { DcqlMatch } from './select-for-dcql.js';

/** A claims path as a person types it: `mandatee.email`, `roles.0`, `roles.*` for every element. */
export const dottedPath = (path: ClaimsPath): string =>
  path.map((c) => (c === null ? '*' : String(c))).join('.');

/**
 * Narrows what each match discloses to the requested claims the holder named (`only`, dotted
 * paths): the holder may withhold a requested claim, never add one that was not asked for. The
 * verifier then judges what is left; a query that needed more fails there, which is the holder's
 * choice. A name that matches no requested claim is refused, so a typo never silently withholds all.
 */
export function limitDisclosures(
  matches: Record<string, DcqlMatch>,
  only: string[],
): Record<string, DcqlMatch> {
  const requested = new Set(Object.values(matches).flatMap((m) => m.claims.map((c) => dottedPath(c.path))));
  const unknown = only.filter((p) => !requested.has(p));
  if (unknown.length)
    throw new WalletError(
      `not requested by the verifier: ${unknown.join(', ')} (requested: ${[...requested].join(', ') || 'none'})`,
    );
  const limited: Record<string, DcqlMatch> = {};
  for (const [id, match] of Object.entries(matches)) {
    const claims = match.claims.filter((c) => only.includes(dottedPath(c.path)));
    const tree = claimTree(match.credential.compact);
    const kept = new Set<string>();
    for (const c of claims) for (const d of disclosuresForPath(tree, c.path, c.values) ?? []) kept.add(d);
    // Filtered from the match's own list, so the order stays the issuer's and nothing unasked joins.
    limited[id] = { ...match, claims, disclosures: match.disclosures.filter((d) => kept.has(d)) };
  }
  return limited;
}
