import { z } from 'zod';

/**
 * One attestation about the credential issuer (ETSI TS 119 472-3 section 4.2.3): `format` names what
 * `data` is, a JWT string or an object. EUDI wallets read the issuer's registration certificate
 * (ETSI TS 119 475) from the one entry of format `registration_cert` and check it against the
 * certificate that signed the metadata (eudi-lib-jvm-openid4vci-kt RegistrationCertificatePolicy).
 */
export const IssuerInfoEntry = z.object({
  format: z.string().min(1),
  data: z.union([z.string(), z.record(z.unknown())]),
});

/** The `issuer_info` issuer metadata parameter: a non-empty array of attestations about the issuer. */
export const IssuerInfo = z
  .array(IssuerInfoEntry)
  .min(1)
  .describe(
    'ETSI TS 119 472-3 issuer_info: the issuer’s registration certificate as { format: registration_cert, data: <JWT> }; absent until an operator imports one',
  );
export type IssuerInfo = z.infer<typeof IssuerInfo>;
