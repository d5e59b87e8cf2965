import { z } from 'zod';

/** RFC 6749 section 5.2 error body, used by every OAuth, OID4VCI and OID4VP endpoint. */
export const OAuthErrorResponse = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});
