import { z } from 'zod';

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
    data: z
      .object({
        response: z.string().max(1_000_000).optional().describe('dc_api.jwt: the encrypted response (JWE)'),
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
