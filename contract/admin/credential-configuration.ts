import { z } from 'zod';
import { ISSUED_FORMATS } from '../credential-formats.js';
import { KeyAttestationsRequired } from '../oid4vci/key-attestations-required.js';

/** Display of a credential type in one locale (SD-JWT VC type metadata and OID4VCI metadata). */
export const CredentialDisplay = z.object({
  locale: z.string().min(2).max(35),
  name: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  background_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .optional(),
  text_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .optional(),
});

/** SD-JWT VC claim metadata: a claim path with its labels. */
export const ClaimMetadata = z.object({
  path: z.array(z.union([z.string(), z.number().int().min(0), z.null()])).min(1),
  display: z.array(z.object({ locale: z.string(), label: z.string() })).optional(),
  mandatory: z.boolean().optional(),
  sd: z.enum(['always', 'allowed', 'never']).optional(),
});

/** What an operator registers: an SD-JWT VC type or an mdoc doctype the issuer can issue. */
export const CredentialConfigurationInput = z
  .object({
    format: z.enum(ISSUED_FORMATS).default('dc+sd-jwt'),
    doctype: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,200}$/, 'an ISO 18013-5 document type such as org.example.employee.1')
      .optional()
      .describe(
        'mso_mdoc only, and required there: the document type; its payload is { namespace: { element: value } }',
      ),
    vct: z
      .string()
      .url()
      .startsWith('https://', 'must be an https URL')
      .optional()
      .describe('The SD-JWT VC type; absent: {issuer}/credential-types/{id}, served by this service'),
    payload_schema: z
      .record(z.unknown())
      .describe('JSON Schema (draft 2020-12 subset ajv supports) of the payload'),
    selectively_disclosable: z
      .array(
        z
          .string()
          .regex(
            /^[A-Za-z0-9_$-]+(\[\])?(\.[A-Za-z0-9_$-]+(\[\])?)*$/,
            'dotted claim path, [] for every element',
          ),
      )
      .default([]),
    validity_seconds: z
      .number()
      .int()
      .min(60)
      .max(10 * 365 * 86_400),
    display: z.array(CredentialDisplay).min(1),
    claims: z.array(ClaimMetadata).default([]),
    key_attestations_required: KeyAttestationsRequired.optional().describe(
      'Present: credential requests must carry a key attestation (OID4VCI 1.0 appendix D) from a trusted wallet provider; {} asks for one without constraints',
    ),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.format === 'mso_mdoc' && !c.doctype)
      ctx.addIssue({ code: 'custom', path: ['doctype'], message: 'required for mso_mdoc' });
    if (c.format === 'mso_mdoc' && c.vct)
      ctx.addIssue({ code: 'custom', path: ['vct'], message: 'an mdoc is named by its doctype, not a vct' });
    if (c.format === 'dc+sd-jwt' && c.doctype)
      ctx.addIssue({ code: 'custom', path: ['doctype'], message: 'only for mso_mdoc' });
  });

export const CredentialConfigurationInfo = z.object({
  id: z.string(),
  format: z.enum(ISSUED_FORMATS),
  vct: z.string().optional().describe('dc+sd-jwt: the SD-JWT VC type'),
  doctype: z.string().optional().describe('mso_mdoc: the document type'),
  builtin: z.boolean(),
  payload_schema: z.record(z.unknown()),
  selectively_disclosable: z.array(z.string()),
  validity_seconds: z.number().int(),
  display: z.array(CredentialDisplay),
  claims: z.array(ClaimMetadata),
  key_attestations_required: KeyAttestationsRequired.optional(),
});

export const CredentialConfigurationList = z.object({ items: z.array(CredentialConfigurationInfo) });

export const ConfigurationId = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, _ . -; at most 100');
