import { z } from 'zod';

/** RFC 7644 sections 3.4.2 and 3.9: filtering, sorting, paging and projection of a list (names in any case). */
export const ScimListQuery = z.object({
  filter: z
    .string()
    .optional()
    .describe('e.g. userName eq "ana@acme.example"; and/or/not, eq ne co sw ew pr gt ge lt le'),
  startIndex: z.coerce.number().int().optional().describe('1-based; below 1 counts as 1'),
  count: z.coerce
    .number()
    .int()
    .optional()
    .describe('Page size, default 100, at most 200 (more is cut to 200)'),
  sortBy: z.string().optional(),
  sortOrder: z.enum(['ascending', 'descending']).optional(),
  attributes: z
    .string()
    .optional()
    .describe('Comma-separated attributes to return (and those always returned)'),
  excludedAttributes: z.string().optional().describe('Comma-separated attributes to leave out'),
});

/** RFC 7644 section 3.9: projection of a single resource, or of a write's answer. */
export const ScimProjectionQuery = ScimListQuery.pick({ attributes: true, excludedAttributes: true });
