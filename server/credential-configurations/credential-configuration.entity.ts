import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { z } from 'zod';
import type {
  ClaimMetadata as ClaimMetadataSchema,
  CredentialDisplay as CredentialDisplaySchema,
} from '../../contract/admin/credential-configuration.js';
import type { KeyAttestationsRequired as KeyAttestationsRequiredSchema } from '../../contract/oid4vci/key-attestations-required.js';

export type CredentialDisplay = z.infer<typeof CredentialDisplaySchema>;
export type ClaimMetadata = z.infer<typeof ClaimMetadataSchema>;
export type KeyAttestationsRequired = z.infer<typeof KeyAttestationsRequiredSchema>;

/**
 * A kind of credential the issuer can issue: its format and type (SD-JWT VC `vct`, mdoc doctype), the JSON Schema its payload must
 * meet, which claims are selectively disclosable, how long credentials are valid, and display data.
 */
export const CredentialConfiguration = defineEntity({
  name: 'CredentialConfiguration',
  tableName: 'credential_configuration',
  properties: {
    id: p.string().primary(),
    format: p.string(),
    /** SD-JWT VC: its type; null: the issuer's own type URL, `{issuer}/credential-types/{id}`. */
    vct: p.string().nullable(),
    /** mdoc: its document type (ISO 18013-5); null for other formats. */
    doctype: p.string().nullable(),
    payloadSchema: p.json<Record<string, unknown>>(),
    /** Claim paths such as `mandatee.email` or `power[]` (every element). */
    selectivelyDisclosable: p.json<string[]>(),
    validitySeconds: p.integer(),
    display: p.json<CredentialDisplay[]>(),
    claims: p.json<ClaimMetadata[]>(),
    /** Null: no key attestation is asked for; else the wallet must send one meeting these levels. */
    keyAttestationsRequired: p.json<KeyAttestationsRequired>().nullable(),
    builtin: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type CredentialConfiguration = InferEntity<typeof CredentialConfiguration>;
