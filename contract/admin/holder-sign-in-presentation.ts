import { z } from 'zod';
import { CredentialQuery } from '../oid4vp/dcql-query.js';

/**
 * A tenant's holders sign in at issuance by presenting a credential (the EU PID, say) to this
 * service's own verifier instead of entering a mailed one-time code: which credential is asked for,
 * and which of its claims must equal what the tenant knows of the holder.
 */

/** A claims path pointer (OID4VP 1.0 section 7) that selects one value: no `null` wildcard. */
export const MatchedClaimPath = z
  .array(z.union([z.string().min(1).max(200), z.number().int().nonnegative()]))
  .min(1)
  .max(10)
  .describe(
    'Path of the claim in the presented credential, e.g. ["family_name"] or, for an mdoc, [namespace, element]',
  );

export const MatchSource = z
  .enum(['payload', 'scim'])
  .describe(
    'payload: the issuance payload (an offer’s, or the one SCIM provisioning builds for the user); scim: the SCIM user resource',
  );

export const MatchComparison = z
  .enum(['name', 'date', 'exact'])
  .describe(
    'name: Unicode NFC, trimmed, inner spaces collapsed, case-insensitive; date: the same YYYY-MM-DD full-date; exact: NFC and trimmed',
  );

/** One claim of the presented credential and the field of the holder's record it must equal. */
export const ClaimMatch = z
  .object({
    claim: MatchedClaimPath,
    source: MatchSource,
    field: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'payload: a dotted path (mandatee.lastName); scim: a SCIM attribute path (name.familyName, or an enterprise attribute by URN)',
      ),
    compare: MatchComparison,
  })
  .strict();
export type ClaimMatch = z.infer<typeof ClaimMatch>;

export const HolderSignInPresentationInput = z
  .object({
    credential: CredentialQuery.describe(
      'DCQL credential query (OID4VP 1.0 section 6.1) of the credential the holder presents, e.g. {"id":"pid","format":"dc+sd-jwt","meta":{"vct_values":["urn:eudi:pid:1"]}}; the matched claims are added to its claims',
    ),
    match: z
      .array(ClaimMatch)
      .min(1)
      .max(20)
      .describe('Every one must match for the holder to be signed in (all of them, never some)'),
  })
  .strict();
export type HolderSignInPresentationInput = z.infer<typeof HolderSignInPresentationInput>;

/** The setting as stored, with the DCQL query the sign-in sends (the credential query and its matched claims). */
export const HolderSignInPresentation = z.object({
  credential: z.record(z.unknown()),
  match: z.array(ClaimMatch),
  dcql_query: z.record(z.unknown()).describe('The query the sign-in page’s presentation request carries'),
  updated_at: z.string().datetime(),
});
