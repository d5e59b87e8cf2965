import { type ZodTypeAny, z } from 'zod';

export const SCIM_LIST_RESPONSE_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** RFC 7644 section 3.4.2: a page of resources, with the exact total. */
export const scimListResponse = <T extends ZodTypeAny>(resource: T) =>
  z.object({
    schemas: z.array(z.literal(SCIM_LIST_RESPONSE_URN)).min(1),
    totalResults: z.number().int().nonnegative(),
    startIndex: z.number().int().min(1),
    itemsPerPage: z.number().int().nonnegative(),
    Resources: z.array(resource),
  });
