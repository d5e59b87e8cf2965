import { z } from 'zod';
import { ANNEX_C_PROTOCOL } from './dc-api-request.js';

/**
 * The wallet's answer as the page that called the Digital Credentials API received it (the
 * DigitalCredential's `data`, OID4VP 1.0 Appendix A.4), posted back with the page's origin.
 */
export const DcApiResponse = z
  .object({
    origin: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'The origin of the page that called navigator.credentials.get (window.location.origin): one of the session’s expected_origins; the presentation must be addressed to origin:<it>',
      ),
    protocol: z
      .enum(['openid4vp-v1-signed', 'openid4vp-v1-unsigned', ANNEX_C_PROTOCOL])
      .optional()
      .describe(
        'The protocol the browser answered with (DigitalCredential.protocol); absent: OpenID4VP. org-iso-mdoc: data is { response }, the Annex C EncryptedResponse',
      ),
    data: z
      .object({
        response: z
          .string()
          .max(1_000_000)
          .optional()
          .describe(
            'dc_api.jwt: the encrypted response (JWE); org-iso-mdoc: base64url of the CBOR EncryptedResponse ["dcapi", {enc, cipherText}]',
          ),
        vp_token: z
          .union([z.record(z.unknown()), z.string().max(1_000_000)])
          .optional()
          .describe('dc_api: the VP Token (a JSON object, or its JSON text)'),
        error: z.string().max(100).optional().describe('The wallet declined (OID4VP 1.0 section 8.5)'),
        error_description: z.string().max(1000).optional(),
      })
      .passthrough()
      .describe('DigitalCredential.data as the browser returned it'),
  })
  .strict();
export type DcApiResponse = z.infer<typeof DcApiResponse>;
