import { z } from 'zod';

/** SHA-256 of a trust anchor's DER, lowercase hex: how the API and session results name it. */
export const TrustAnchorId = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the certificate, 64 lowercase hex digits');

export const TrustAnchorInput = z
  .object({
    certificate: z
      .string()
      .min(1)
      .max(20_000)
      .describe('One X.509 CA certificate in PEM (-----BEGIN CERTIFICATE-----), the root to trust'),
  })
  .strict();

export const TrustAnchorInfo = z.object({
  sha256: TrustAnchorId,
  subject: z.string(),
  key_identifier: z
    .string()
    .describe(
      'Base64url key identifier of the anchor, the authorityKeyIdentifier of what it issued: a DCQL trusted_authorities aki value',
    ),
  not_before: z.string().datetime(),
  not_after: z.string().datetime(),
  certificate: z.string().describe('PEM'),
});

export const TrustAnchorList = z.object({ items: z.array(TrustAnchorInfo) });
