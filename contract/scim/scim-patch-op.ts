import { z } from 'zod';

export const SCIM_PATCH_OP_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/**
 * RFC 7644 section 3.5.2: the body of PATCH /Users/{id} and /Groups/{id}. Member names match in any
 * case, and so does `op` (Entra sends "Replace").
 */
export const ScimPatchOp = z.object({
  schemas: z.array(z.string()).min(1).describe(`Must contain ${SCIM_PATCH_OP_URN}`),
  Operations: z
    .array(
      z
        .object({
          op: z.enum(['add', 'remove', 'replace', 'Add', 'Remove', 'Replace']),
          path: z
            .string()
            .min(1)
            .optional()
            .describe('Attribute path, with a value filter where needed (emails[type eq "work"].value)'),
          value: z.unknown().optional().describe('Required for add and replace'),
        })
        .passthrough(),
    )
    .min(1)
    .max(1000),
});

export type ScimPatchOp = z.infer<typeof ScimPatchOp>;
