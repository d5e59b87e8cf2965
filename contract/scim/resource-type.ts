import { z } from 'zod';
import { ScimMeta } from './scim-meta.js';

/** RFC 7643 section 6: a resource type the endpoint serves (User, Group). */
export const ScimResourceType = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  schema: z.string().describe('URN of the core schema'),
  schemaExtensions: z.array(z.object({ schema: z.string(), required: z.boolean() })).optional(),
  meta: ScimMeta,
});
