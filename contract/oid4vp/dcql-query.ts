import { z } from 'zod';

/**
 * The Digital Credentials Query Language (OID4VP 1.0 §6): the `dcql_query` a verifier sends and later
 * checks the VP Token against. Unknown properties are kept (the spec says to ignore them).
 * `trusted_authorities` may only be of type `aki`, which the verifier enforces on the answer.
 */

/** Credential formats `verifyVpToken` verifies. Other formats parse, and their presentations are refused. */
export const DCQL_SUPPORTED_FORMATS = ['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json'] as const;

const Identifier = z.string().regex(/^[A-Za-z0-9_-]+$/, 'alphanumeric, underscore or hyphen');

/** §7: non-empty array of strings (object keys), null (every array element) and array indexes. */
export const ClaimsPathPointer = z
  .array(z.union([z.string(), z.number().int().nonnegative(), z.null()]))
  .min(1);
export type ClaimsPathPointer = z.infer<typeof ClaimsPathPointer>;

/**
 * §6.1.1: `aki` (§6.1.1.1): base64url key identifiers; a credential matches when a certificate of its
 * `x5c` chain has one of them as its authorityKeyIdentifier. The other types (`etsi_tl`,
 * `openid_federation`) are refused: this verifier could not enforce them, and a query it does not
 * enforce would let the wallet believe the verifier filters what it does not.
 */
export const TrustedAuthoritiesQuery = z
  .object({
    type: z.literal('aki', {
      errorMap: () => ({ message: 'only aki is supported (OID4VP 1.0 section 6.1.1.1)' }),
    }),
    values: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, 'a base64url key identifier')).min(1),
  })
  .passthrough();
export type TrustedAuthoritiesQuery = z.infer<typeof TrustedAuthoritiesQuery>;

/** §6.3. */
export const ClaimsQuery = z
  .object({
    id: Identifier.optional(),
    path: ClaimsPathPointer,
    values: z
      .array(z.union([z.string(), z.number().int(), z.boolean()]))
      .min(1)
      .optional(),
  })
  .passthrough();
export type ClaimsQuery = z.infer<typeof ClaimsQuery>;

/**
 * §6.1. `meta` holds `vct_values` (dc+sd-jwt, §B.3.5), `doctype_value` (mso_mdoc, §B.2.3) or
 * `type_values` (W3C formats, §B.1.1).
 */
export const CredentialQuery = z
  .object({
    id: Identifier,
    format: z.string().min(1),
    multiple: z.boolean().optional(),
    meta: z
      .object({
        vct_values: z.array(z.string()).min(1).optional(),
        doctype_value: z.string().min(1).optional(),
        type_values: z.array(z.array(z.string()).min(1)).min(1).optional(),
      })
      .passthrough(),
    trusted_authorities: z.array(TrustedAuthoritiesQuery).min(1).optional(),
    require_cryptographic_holder_binding: z.boolean().optional(),
    claims: z.array(ClaimsQuery).min(1).optional(),
    claim_sets: z.array(z.array(Identifier).min(1)).min(1).optional(),
  })
  .passthrough()
  .superRefine((q, ctx) => {
    if (q.format === 'dc+sd-jwt' && !q.meta.vct_values)
      ctx.addIssue({ code: 'custom', path: ['meta', 'vct_values'], message: 'required for dc+sd-jwt' });
    if (q.format === 'mso_mdoc' && !q.meta.doctype_value)
      ctx.addIssue({ code: 'custom', path: ['meta', 'doctype_value'], message: 'required for mso_mdoc' });
    if (q.format === 'jwt_vc_json' && !q.meta.type_values)
      ctx.addIssue({ code: 'custom', path: ['meta', 'type_values'], message: 'required for jwt_vc_json' });
    const ids = (q.claims ?? []).map((c) => c.id);
    if (new Set(ids.filter(Boolean)).size !== ids.filter(Boolean).length)
      ctx.addIssue({ code: 'custom', path: ['claims'], message: 'claim ids must be unique' });
    if (!q.claim_sets) return;
    if (!q.claims) ctx.addIssue({ code: 'custom', path: ['claim_sets'], message: 'claim_sets needs claims' });
    if (ids.some((id) => id === undefined))
      ctx.addIssue({ code: 'custom', path: ['claims'], message: 'every claim needs an id with claim_sets' });
    for (const [i, set] of q.claim_sets.entries())
      for (const id of set)
        if (!ids.includes(id))
          ctx.addIssue({ code: 'custom', path: ['claim_sets', i], message: `unknown claim id ${id}` });
  });
export type CredentialQuery = z.infer<typeof CredentialQuery>;

/** §6.2. */
export const CredentialSetQuery = z
  .object({
    options: z.array(z.array(Identifier).min(1)).min(1),
    required: z.boolean().optional(),
  })
  .passthrough();
export type CredentialSetQuery = z.infer<typeof CredentialSetQuery>;

/** §6. */
export const DcqlQuery = z
  .object({
    credentials: z.array(CredentialQuery).min(1),
    credential_sets: z.array(CredentialSetQuery).min(1).optional(),
  })
  .passthrough()
  .superRefine((q, ctx) => {
    const ids = q.credentials.map((c) => c.id);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['credentials'], message: 'credential query ids must be unique' });
    for (const [i, set] of (q.credential_sets ?? []).entries())
      for (const option of set.options)
        for (const id of option)
          if (!ids.includes(id))
            ctx.addIssue({
              code: 'custom',
              path: ['credential_sets', i],
              message: `unknown credential id ${id}`,
            });
  });
export type DcqlQuery = z.infer<typeof DcqlQuery>;
