import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ClaimMatch,
  HolderSignInPresentationInput,
} from '../../contract/admin/holder-sign-in-presentation.js';
import { type CredentialQuery, DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import { readAttribute } from '../directory/scim-attribute-value.js';
import { type FieldError, validationError } from '../domain-errors.js';
import { credentialFormat } from '../formats/credential-formats.js';
import { fieldErrors } from '../http/zod-errors.js';
import { HolderSignInPresentation } from './holder-sign-in-presentation.entity.js';

/** A dotted path into an issuance payload: names, and indexes of arrays. */
export const PAYLOAD_FIELD = /^[A-Za-z_$][\w$-]*(\.([A-Za-z_$][\w$-]*|\d+))*$/;

const samePath = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The DCQL query a sign-in sends: the operator's credential query with every matched claim asked
 * for (added to its claims when it does not name them already), so the wallet discloses them.
 */
export function signInQueryOf(s: Pick<HolderSignInPresentation, 'credentialQuery' | 'match'>): DcqlQuery {
  const query = s.credentialQuery as CredentialQuery;
  const claims = [...(query.claims ?? [])];
  for (const { claim } of s.match)
    if (!claims.some((c) => samePath(c.path, claim))) claims.push({ path: [...claim] });
  return { credentials: [{ ...query, claims }] };
}

/**
 * What the contract cannot say about a rule: a format this verifier takes, one credential (not
 * `multiple`) with every claim asked for (no `claim_sets`, which would let the wallet leave one
 * out), an mdoc's claims as [namespace, element], fields that can be read, and a query that is
 * still DCQL once the matched claims are in.
 */
function problemsOf(input: HolderSignInPresentationInput): FieldError[] {
  const errors: FieldError[] = [];
  const { credential } = input;
  const format = credentialFormat(credential.format);
  if (!format)
    errors.push({
      field: 'credential.format',
      message: `${credential.format} is not a format this verifier takes`,
    });
  if (credential.multiple)
    errors.push({ field: 'credential.multiple', message: 'one credential is presented: leave multiple out' });
  if (credential.claim_sets)
    errors.push({
      field: 'credential.claim_sets',
      message: 'every matched claim is asked for: no claim_sets',
    });
  if (format?.claimsPathProblem) errors.push(...claimsPathProblems(input, format.claimsPathProblem));
  for (const [i, m] of input.match.entries()) {
    const field = `match.${i}.field`;
    if (m.source === 'payload' && !PAYLOAD_FIELD.test(m.field))
      errors.push({ field, message: 'a dotted payload path, e.g. mandatee.lastName' });
    if (m.source === 'scim' && !readableScimPath(m.field))
      errors.push({ field, message: 'a SCIM attribute path, e.g. name.familyName' });
  }
  const query = DcqlQuery.safeParse(signInQueryOf({ credentialQuery: credential, match: input.match }));
  if (!query.success) errors.push(...fieldErrors(query.error).map(asCredentialField));
  return errors;
}

/** The rule's paths (matched claims and the query's own) that the format cannot read a claim at. */
function claimsPathProblems(
  input: HolderSignInPresentationInput,
  problem: (path: readonly unknown[]) => string | undefined,
): FieldError[] {
  const paths = [
    ...input.match.map((m, i) => ({ field: `match.${i}.claim`, path: m.claim })),
    ...(input.credential.claims ?? []).map((c, i) => ({
      field: `credential.claims.${i}.path`,
      path: c.path,
    })),
  ];
  return paths.flatMap(({ field, path }) => {
    const message = problem(path);
    return message ? [{ field, message }] : [];
  });
}

// The query's errors name `credentials.0.…`: the operator wrote `credential.…`.
const asCredentialField = (e: FieldError) => ({
  ...e,
  field: e.field.replace(/^credentials\.0/, 'credential'),
});

function readableScimPath(path: string): boolean {
  try {
    readAttribute({}, path);
    return true;
  } catch {
    return false;
  }
}

/** The tenant's rule, or null: its holders sign in by a mailed code (or at its OpenID provider). */
export function holderSignInPresentationOf(em: EntityManager, tenantId: string) {
  return em.findOne(HolderSignInPresentation, { tenantId }, { disableIdentityMap: true });
}

/** Sets (or replaces) the tenant's rule in the caller's transaction; 400 naming the field when it is unusable. */
export async function saveHolderSignInPresentation(
  tx: EntityManager,
  tenantId: string,
  input: HolderSignInPresentationInput,
): Promise<HolderSignInPresentation> {
  const errors = problemsOf(input);
  if (errors.length) throw validationError(errors);
  const row = {
    tenantId,
    credentialQuery: input.credential as Record<string, unknown>,
    match: input.match satisfies ClaimMatch[],
    updatedAt: new Date(),
  };
  await tx.upsert(HolderSignInPresentation, row);
  return row;
}

/** Removes it: the tenant's holders sign in as before. True when one was set. */
export async function removeHolderSignInPresentation(tx: EntityManager, tenantId: string): Promise<boolean> {
  return (await tx.nativeDelete(HolderSignInPresentation, { tenantId })) > 0;
}
