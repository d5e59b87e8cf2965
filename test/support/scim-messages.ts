import { z } from 'zod';

/**
 * The SCIM message and resource shapes of RFC 7643 and RFC 7644, written out from the RFCs (not
 * from this service's code), to check every answer a test receives: the exact `schemas` URNs, the
 * required members and their types.
 */
const urn = (value: string) => z.string().refine((s) => s === value, `schemas must hold ${value}`);
const schemasWith = (value: string) =>
  z.array(z.string()).refine((list) => list.includes(value), `schemas must include ${value}`);

const meta = (resourceType: string) =>
  z.object({
    resourceType: z.literal(resourceType),
    location: z.string().url(),
    created: z.string().datetime({ offset: true }).optional(),
    lastModified: z.string().datetime({ offset: true }).optional(),
    version: z.string().optional(),
  });

/** RFC 7644 section 3.12. */
export const ScimErrorMessage = z.object({
  schemas: z.tuple([urn('urn:ietf:params:scim:api:messages:2.0:Error')]),
  status: z.string().regex(/^[1-5]\d\d$/),
  scimType: z
    .enum([
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
    ])
    .optional(),
  detail: z.string().optional(),
});

/** RFC 7643 section 4.1, as returned: id and meta always, userName required. */
export const ScimUserResource = z
  .object({
    schemas: schemasWith('urn:ietf:params:scim:schemas:core:2.0:User'),
    id: z.string().min(1),
    userName: z.string().min(1),
    active: z.boolean().optional(),
    groups: z
      .array(
        z.object({ value: z.string(), $ref: z.string().url().optional(), display: z.string().optional() }),
      )
      .optional(),
    meta: meta('User'),
  })
  .passthrough();

/** RFC 7643 section 4.2. */
export const ScimGroupResource = z
  .object({
    schemas: schemasWith('urn:ietf:params:scim:schemas:core:2.0:Group'),
    id: z.string().min(1),
    displayName: z.string().min(1),
    members: z
      .array(
        z.object({ value: z.string(), $ref: z.string().url().optional(), display: z.string().optional() }),
      )
      .optional(),
    meta: meta('Group'),
  })
  .passthrough();

/** RFC 7643 section 5. */
export const ServiceProviderConfigResource = z
  .object({
    schemas: schemasWith('urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'),
    patch: z.object({ supported: z.boolean() }),
    bulk: z.object({
      supported: z.boolean(),
      maxOperations: z.number().int(),
      maxPayloadSize: z.number().int(),
    }),
    filter: z.object({ supported: z.boolean(), maxResults: z.number().int() }),
    changePassword: z.object({ supported: z.boolean() }),
    sort: z.object({ supported: z.boolean() }),
    etag: z.object({ supported: z.boolean() }),
    authenticationSchemes: z.array(z.object({ type: z.string(), name: z.string(), description: z.string() })),
  })
  .passthrough();

/** RFC 7643 section 6. */
export const ResourceTypeResource = z
  .object({
    schemas: schemasWith('urn:ietf:params:scim:schemas:core:2.0:ResourceType'),
    id: z.string().optional(),
    name: z.string(),
    endpoint: z.string(),
    schema: z.string(),
  })
  .passthrough();

/** RFC 7643 section 7. */
export const SchemaResource = z
  .object({
    schemas: schemasWith('urn:ietf:params:scim:schemas:core:2.0:Schema'),
    id: z.string().startsWith('urn:'),
    attributes: z.array(
      z.object({ name: z.string(), type: z.string(), multiValued: z.boolean() }).passthrough(),
    ),
  })
  .passthrough();

/** RFC 7644 section 3.4.2: the list, and each resource in it as its own kind. */
export const listResponseOf = (resource: z.ZodTypeAny) =>
  z.object({
    schemas: z.tuple([urn('urn:ietf:params:scim:api:messages:2.0:ListResponse')]),
    totalResults: z.number().int().nonnegative(),
    startIndex: z.number().int().positive().optional(),
    itemsPerPage: z.number().int().nonnegative().optional(),
    Resources: z.array(resource).optional(),
  });

/** The one schema a body of this kind must satisfy, told apart by its URNs. */
export function messageSchemaOf(body: { schemas?: unknown }): z.ZodTypeAny | undefined {
  const schemas = Array.isArray(body.schemas) ? (body.schemas as string[]) : [];
  const has = (s: string) => schemas.includes(s);
  if (has('urn:ietf:params:scim:api:messages:2.0:Error')) return ScimErrorMessage;
  if (has('urn:ietf:params:scim:schemas:core:2.0:User')) return ScimUserResource;
  if (has('urn:ietf:params:scim:schemas:core:2.0:Group')) return ScimGroupResource;
  if (has('urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'))
    return ServiceProviderConfigResource;
  if (has('urn:ietf:params:scim:schemas:core:2.0:ResourceType')) return ResourceTypeResource;
  if (has('urn:ietf:params:scim:schemas:core:2.0:Schema')) return SchemaResource;
  if (has('urn:ietf:params:scim:api:messages:2.0:ListResponse')) {
    const first = (body as { Resources?: { schemas?: unknown }[] }).Resources?.[0];
    return listResponseOf((first && messageSchemaOf(first)) ?? z.unknown());
  }
  return undefined;
}
