import { z } from 'zod';

/**
 * The form the issuance sign-in page posts to /oauth2/authorize/issuance: the code mailed to the
 * holder, five attempts per sign-in.
 */
export const IssuanceSignInForm = z.object({
  session: z.string().describe('The sign-in, as the page holds it'),
  one_time_code: z.string().describe('The code mailed to the holder'),
});
