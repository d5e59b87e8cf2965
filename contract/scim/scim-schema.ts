import { z } from 'zod';
import { ScimMeta } from './scim-meta.js';

const attribute = {
  name: z.string(),
  type: z.enum(['string', 'boolean', 'decimal', 'integer', 'dateTime', 'binary', 'reference', 'complex']),
  multiValued: z.boolean(),
  required: z.boolean(),
  caseExact: z.boolean(),
  mutability: z.enum(['readOnly', 'readWrite', 'immutable', 'writeOnly']),
  returned: z.enum(['always', 'never', 'default', 'request']),
  uniqueness: z.enum(['none', 'server', 'global']),
  canonicalValues: z.array(z.string()).optional(),
  referenceTypes: z.array(z.string()).optional(),
  description: z.string().optional().describe('For writable strings: how long a value may be'),
};

/** RFC 7643 section 7: an attribute definition; complex attributes have one level of sub-attributes. */
export const ScimAttributeDefinition = z.object({
  ...attribute,
  subAttributes: z.array(z.object(attribute)).optional(),
});

/** RFC 7643 section 7: a schema the endpoint publishes (User, EnterpriseUser, Group, Credential). */
export const ScimSchemaDefinition = z.object({
  schemas: z.array(z.string()),
  id: z.string().describe('The schema URN'),
  name: z.string(),
  description: z.string(),
  attributes: z.array(ScimAttributeDefinition),
  meta: ScimMeta,
});
