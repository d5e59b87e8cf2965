import { z } from 'zod';

/** RFC 7643 section 3.1: `meta` of a resource the service returns. */
export const ScimMeta = z.object({
  resourceType: z.string(),
  created: z.string().datetime().optional(),
  lastModified: z.string().datetime().optional(),
  location: z.string().url(),
  version: z.string().optional().describe('Weak ETag of the resource, as in the ETag header: W/"<n>"'),
});
