import { z } from 'zod';

/**
 * An attack potential resistance value of a key attestation (OID4VCI 1.0 appendix D.2): one of the
 * ISO/IEC 18045 levels the specification defines, or an ecosystem's own value as a URL.
 */
export const AttackPotentialResistance = z
  .union([
    z.enum(['iso_18045_high', 'iso_18045_moderate', 'iso_18045_enhanced-basic', 'iso_18045_basic']),
    z.string().url().startsWith('https://', 'must be an https URL'),
  ])
  .describe('iso_18045_high, iso_18045_moderate, iso_18045_enhanced-basic, iso_18045_basic, or an https URL');

/**
 * OID4VCI 1.0 section 12.2.4 `key_attestations_required`: the wallet must send a key attestation
 * (appendix D) with its proofs; a list, when present, holds the values accepted, of which the
 * attestation must assert at least one.
 */
export const KeyAttestationsRequired = z
  .object({
    key_storage: z.array(AttackPotentialResistance).min(1).max(20).optional(),
    user_authentication: z.array(AttackPotentialResistance).min(1).max(20).optional(),
  })
  .strict();
