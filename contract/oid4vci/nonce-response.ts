import { z } from 'zod';

/** OID4VCI 1.0 section 7.2: a fresh c_nonce for key proofs. */
export const NonceResponse = z.object({ c_nonce: z.string() });
