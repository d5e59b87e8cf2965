import { z } from 'zod';

export const SCIM_ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

export const ScimErrorType = z.enum([
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
]);

/** RFC 7644 section 3.12: the error body of every SCIM endpoint (application/scim+json). */
export const ScimError = z
  .object({
    schemas: z.array(z.literal(SCIM_ERROR_URN)).min(1),
    status: z
      .string()
      .regex(/^[1-5][0-9]{2}$/)
      .describe('The HTTP status code, as a string'),
    scimType: ScimErrorType.optional().describe('The kind of error, where RFC 7644 has one for it'),
    detail: z.string().describe('What is wrong, for a person'),
  })
  .describe('A SCIM error (RFC 7644 section 3.12)');

export type ScimError = z.infer<typeof ScimError>;
