import { z } from 'zod';
import { ScimMeta } from './scim-meta.js';

const supported = z.object({ supported: z.boolean() });

/** RFC 7643 section 5: what this SCIM service provider supports. */
export const ScimServiceProviderConfig = z.object({
  schemas: z.array(z.string()),
  patch: supported,
  bulk: supported.extend({ maxOperations: z.number().int(), maxPayloadSize: z.number().int() }),
  filter: supported.extend({ maxResults: z.number().int() }),
  changePassword: supported,
  sort: supported,
  etag: supported,
  authenticationSchemes: z.array(
    z.object({
      type: z.string(),
      name: z.string(),
      description: z.string(),
      primary: z.boolean().optional(),
    }),
  ),
  meta: ScimMeta,
});
