import { type ClaimsPath, claimTree, disclosuresForPath } from './claims-path.js';
import { WalletError } from './errors.js';
import { isMdocPath } from './mdoc-claims.js';
import type { DcqlClaimsQuery, DcqlMatch } from './select-for-dcql.js';

/** A claims path as a person types it: `mandatee.email`, `roles.0`, `roles.*` for every element. */
export const dottedPath = (path: ClaimsPath): string =>
  path.map((c) => (c === null ? '*' : String(c))).join('.');

/**
 * The names a holder may give a requested claim: its dotted path, and for an mdoc also the data
 * element alone (`mandatee` for [`eu.credservice.employee.1`, `mandatee`]), as namespaces are long.
 */
const namesOf = (match: DcqlMatch, claim: DcqlClaimsQuery): string[] =>
  match.credential.format === 'mso_mdoc' && isMdocPath(claim.path)
    ? [dottedPath(claim.path), claim.path[1]]
    : [dottedPath(claim.path)];

/**
 * Narrows what each match discloses to the requested claims the holder named (`only`, dotted
 * paths, or an mdoc's element names): the holder may withhold a requested claim, never add one
 * that was not asked for. The verifier then judges what is left; a query that needed more fails
 * there, which is the holder's choice. A name that matches no requested claim is refused, so a
 * typo never silently withholds all.
 */
export function limitDisclosures(
  matches: Record<string, DcqlMatch>,
  only: string[],
): Record<string, DcqlMatch> {
  const requested = new Set(Object.values(matches).flatMap((m) => m.claims.flatMap((c) => namesOf(m, c))));
  const unknown = only.filter((p) => !requested.has(p));
  if (unknown.length)
    throw new WalletError(
      `not requested by the verifier: ${unknown.join(', ')} (requested: ${[...requested].join(', ') || 'none'})`,
    );
  const limited: Record<string, DcqlMatch> = {};
  for (const [id, match] of Object.entries(matches)) {
    const claims = match.claims.filter((c) => namesOf(match, c).some((name) => only.includes(name)));
    // An mdoc discloses the data elements of its claims, and has no disclosures to filter.
    if (match.credential.format === 'mso_mdoc') {
      limited[id] = { ...match, claims };
      continue;
    }
    const tree = claimTree(match.credential.compact);
    const kept = new Set<string>();
    for (const c of claims) for (const d of disclosuresForPath(tree, c.path, c.values) ?? []) kept.add(d);
    // Filtered from the match's own list, so the order stays the issuer's and nothing unasked joins.
    limited[id] = { ...match, claims, disclosures: match.disclosures.filter((d) => kept.has(d)) };
  }
  return limited;
}
