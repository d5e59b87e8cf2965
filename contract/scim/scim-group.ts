import { z } from 'zod';
import { ScimMeta } from './scim-meta.js';

export const SCIM_GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const ScimMemberInput = z
  .object({
    value: z.string().describe('id of a User of the same tenant; others are ignored'),
    display: z.string().optional(),
    type: z.enum(['User', 'Group']).optional(),
  })
  .passthrough();

/** The body of POST /Groups and PUT /Groups/{id} (RFC 7643 section 4.2). */
export const ScimGroupInput = z
  .object({
    schemas: z.array(z.string()).optional().describe(SCIM_GROUP_URN),
    externalId: z.string().optional(),
    displayName: z.string().min(1).describe('Unique within the tenant'),
    members: z.array(ScimMemberInput).optional(),
  })
  .passthrough();

/** A Group as the service returns it, members included (narrowed by `attributes`/`excludedAttributes`). */
export const ScimGroup = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    displayName: z.string().optional(),
    members: z
      .array(
        z.object({
          value: z.string(),
          display: z.string().optional(),
          $ref: z.string().optional(),
          type: z.enum(['User', 'Group']).optional(),
        }),
      )
      .optional(),
    meta: ScimMeta.optional(),
  })
  .passthrough();

export type ScimGroup = z.infer<typeof ScimGroup>;
