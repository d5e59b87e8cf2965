import { z } from 'zod';

/** RFC 7517 section 5: the public keys ID tokens are signed with. */
export const Jwks = z.object({
  keys: z.array(
    z
      .object({
        kty: z.string(),
        kid: z.string().optional(),
        alg: z.string().optional(),
        use: z.string().optional(),
        crv: z.string().optional(),
        x: z.string().optional(),
        y: z.string().optional(),
      })
      .passthrough(),
  ),
});
