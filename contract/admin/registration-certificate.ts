import { z } from 'zod';

/**
 * The `format` under which EUDI wallets look for a registration certificate, in a Request Object's
 * `verifier_info` (ETSI TS 119 472-2) and in the issuer metadata's `issuer_info` (ETSI TS 119
 * 472-3): the EUDI reference wallet libraries name it so (eudi-lib-jvm-openid4vp-kt
 * `ETSI119472Part2.VERIFIER_INFO_REG_CERT_FORMAT`, eudi-lib-jvm-openid4vci-kt
 * `ETSI119472Part3.REGISTRATION_CERT`, eudi-lib-ios-openid4vp-swift `VERIFIER_INFO_FORMAT_WRPRC`).
 */
export const REGISTRATION_CERT_FORMAT = 'registration_cert';

/** Whose registration: a tenant's verifier (relying party), or the deployment's credential issuer. */
export const RegistrationCertificateRole = z.enum(['verifier', 'issuer']);
export type RegistrationCertificateRole = z.infer<typeof RegistrationCertificateRole>;

/** What an operator imports: the certificate exactly as the registrar issued it. */
export const RegistrationCertificateImport = z
  .object({
    certificate: z
      .string()
      .min(1)
      .max(100_000)
      .describe(
        'A wallet-relying party registration certificate (ETSI TS 119 475): a compact JWS of typ rc-wrp+jwt, ' +
          'ES256, ES384 or PS256, with the registrar’s certificate chain in x5c',
      ),
  })
  .strict();

/** An imported registration certificate as the operator sees it; the JWT itself goes to wallets. */
export const RegistrationCertificate = z.object({
  role: RegistrationCertificateRole,
  format: z
    .literal(REGISTRATION_CERT_FORMAT)
    .describe('The format of its verifier_info or issuer_info entry'),
  subject: z
    .string()
    .describe('The registered party as the certificate names it: its name, then its identifiers'),
  issuer: z.string().describe('The registrar: the subject of the certificate that signed it (x5c leaf)'),
  issued_at: z.string().datetime().nullable().describe('Its iat'),
  expires_at: z
    .string()
    .datetime()
    .nullable()
    .describe(
      'When wallets stop accepting it: its exp or the end of its signing certificate, the earlier; ' +
        'an expired one is no longer sent',
    ),
  sha256: z.string().describe('SHA-256 of the JWT as imported, lowercase hex'),
});
export type RegistrationCertificate = z.infer<typeof RegistrationCertificate>;
