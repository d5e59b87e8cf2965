import { z } from 'zod';

/** OID4VCI 1.0 section 4.1.1: the Credential Offer, as fetched from credential_offer_uri. */
export const CredentialOffer = z.object({
  credential_issuer: z.string().url(),
  credential_configuration_ids: z.array(z.string()).min(1),
  grants: z.object({
    // Section 4.1.1: an offer names one grant; issuer_state ties the authorization request to it.
    authorization_code: z.object({ issuer_state: z.string() }).optional(),
    'urn:ietf:params:oauth:grant-type:pre-authorized_code': z
      .object({
        'pre-authorized_code': z.string(),
        tx_code: z
          .object({
            input_mode: z.enum(['numeric', 'text']).optional(),
            length: z.number().int().optional(),
            description: z.string().max(300).optional(),
          })
          .optional(),
      })
      .optional(),
  }),
});
