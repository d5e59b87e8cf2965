import { z } from 'zod';

/**
 * One attestation about the verifier (OpenID4VP 1.0 section 5.1): `format` names what `data` is, a
 * JWT string or an object; `credential_ids` (DCQL credential query ids) narrows it to some of the
 * requested credentials. EUDI wallets read a registration certificate from the entry of format
 * `registration_cert` and refuse one that has `credential_ids` (eudi-lib-jvm-openid4vp-kt), so this
 * verifier sends it without.
 */
export const VerifierInfoEntry = z.object({
  format: z.string().min(1),
  data: z.union([z.string(), z.record(z.unknown())]),
  credential_ids: z.array(z.string()).min(1).optional(),
});

/** The `verifier_info` request parameter: a non-empty array of attestations about the verifier. */
export const VerifierInfo = z.array(VerifierInfoEntry).min(1);
export type VerifierInfo = z.infer<typeof VerifierInfo>;
