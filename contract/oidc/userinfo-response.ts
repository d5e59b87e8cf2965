import { z } from 'zod';

/**
 * OpenID Connect Core 5.3.2: the claims of the sign-in the access token was issued for, as its
 * client's claims_mapping reads them from the presented credential (the same as in the ID token).
 */
export const UserinfoResponse = z
  .object({ sub: z.string() })
  .catchall(z.unknown())
  .describe('sub, and each claim the client’s claims_mapping names');
