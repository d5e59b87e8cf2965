import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TenantId } from '../admin/tenant.js';
import { ScimResourceType } from './resource-type.js';
import { ScimError } from './scim-error.js';
import { ScimGroup, ScimGroupInput } from './scim-group.js';
import { ScimListQuery, ScimProjectionQuery } from './scim-list-query.js';
import { scimListResponse } from './scim-list-response.js';
import { ScimPatchOp } from './scim-patch-op.js';
import { ScimSchemaDefinition } from './scim-schema.js';
import { ScimUser, ScimUserInput } from './scim-user.js';
import { ScimServiceProviderConfig } from './service-provider-config.js';

const c = initContract();

const tenantPath = z.object({ tenant: TenantId });
const resourcePath = tenantPath.extend({ id: z.string().describe('The resource’s id') });
const ifMatch = z.object({
  'if-match': z
    .string()
    .optional()
    .describe('The ETag last read (W/"<n>"); the write fails with 412 when the resource changed since'),
});
const etag = z.object({ ETag: z.string().describe('Version of the resource, W/"<n>"') });
const created = etag.extend({ Location: z.string().url().describe('The new resource’s URL') });

/** Errors every SCIM operation can answer: the token (401) and the per-tenant rate limit (429). */
const errors = { 400: ScimError, 401: ScimError, 429: ScimError };
const resourceErrors = { ...errors, 404: ScimError };
const writeErrors = { ...resourceErrors, 409: ScimError, 412: ScimError };

/**
 * The SCIM 2.0 endpoint of each tenant (RFC 7643, RFC 7644), as served by server/scim/: not mounted
 * through ts-rest (its media type, errors and case-insensitive names are its own), described here for
 * the OpenAPI document. Every message is application/scim+json; requests may also be application/json.
 */
export const scimRoutes = c.router(
  {
    listUsers: {
      method: 'GET',
      path: '/Users',
      pathParams: tenantPath,
      query: ScimListQuery,
      responses: { 200: scimListResponse(ScimUser), ...errors },
      summary: 'List or filter the tenant’s users',
    },
    createUser: {
      method: 'POST',
      path: '/Users',
      pathParams: tenantPath,
      body: ScimUserInput,
      responses: { 201: ScimUser, ...errors, 409: ScimError },
      summary: 'Provision a user; issues its credential when the tenant’s provisioning says so',
      metadata: { responseHeaders: { 201: created } },
    },
    getUser: {
      method: 'GET',
      path: '/Users/:id',
      pathParams: resourcePath,
      query: ScimProjectionQuery,
      responses: { 200: ScimUser, ...resourceErrors },
      summary: 'Read a user, with its groups and where its credential stands',
      metadata: { responseHeaders: { 200: etag } },
    },
    replaceUser: {
      method: 'PUT',
      path: '/Users/:id',
      pathParams: resourcePath,
      headers: ifMatch,
      query: ScimProjectionQuery,
      body: ScimUserInput,
      responses: { 200: ScimUser, ...writeErrors },
      summary: 'Replace a user; renews its credential when the credential’s data changed',
      metadata: { responseHeaders: { 200: etag } },
    },
    patchUser: {
      method: 'PATCH',
      path: '/Users/:id',
      pathParams: resourcePath,
      headers: ifMatch,
      query: ScimProjectionQuery,
      body: ScimPatchOp,
      responses: { 200: ScimUser, 204: c.noBody(), ...writeErrors },
      summary:
        'Change a user (add, replace, remove); 204, or 200 with the user when attributes or excludedAttributes ask for it',
      metadata: { responseHeaders: { 200: etag, 204: etag } },
    },
    deleteUser: {
      method: 'DELETE',
      path: '/Users/:id',
      pathParams: resourcePath,
      headers: ifMatch,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...resourceErrors, 412: ScimError },
      summary: 'Deprovision a user; revokes its credential',
    },
    listGroups: {
      method: 'GET',
      path: '/Groups',
      pathParams: tenantPath,
      query: ScimListQuery,
      responses: { 200: scimListResponse(ScimGroup), ...errors },
      summary: 'List or filter the tenant’s groups',
    },
    createGroup: {
      method: 'POST',
      path: '/Groups',
      pathParams: tenantPath,
      body: ScimGroupInput,
      responses: { 201: ScimGroup, ...errors, 409: ScimError },
      summary: 'Create a group; its members receive the powers the provisioning maps to it',
      metadata: { responseHeaders: { 201: created } },
    },
    getGroup: {
      method: 'GET',
      path: '/Groups/:id',
      pathParams: resourcePath,
      query: ScimProjectionQuery,
      responses: { 200: ScimGroup, ...resourceErrors },
      summary: 'Read a group and its members',
      metadata: { responseHeaders: { 200: etag } },
    },
    replaceGroup: {
      method: 'PUT',
      path: '/Groups/:id',
      pathParams: resourcePath,
      headers: ifMatch,
      query: ScimProjectionQuery,
      body: ScimGroupInput,
      responses: { 200: ScimGroup, ...writeErrors },
      summary: 'Replace a group and its members',
      metadata: { responseHeaders: { 200: etag } },
    },
    patchGroup: {
      method: 'PATCH',
      path: '/Groups/:id',
      pathParams: resourcePath,
      headers: ifMatch,
      query: ScimProjectionQuery,
      body: ScimPatchOp,
      responses: { 200: ScimGroup, 204: c.noBody(), ...writeErrors },
      summary:
        'Change a group (members added or removed); 204, or 200 with the group when attributes or excludedAttributes ask for it',
      metadata: { responseHeaders: { 200: etag, 204: etag } },
    },
    deleteGroup: {
      method: 'DELETE',
      path: '/Groups/:id',
      pathParams: resourcePath,
      headers: ifMatch,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...resourceErrors, 412: ScimError },
      summary: 'Delete a group; its members lose the powers it gave',
    },
    serviceProviderConfig: {
      method: 'GET',
      path: '/ServiceProviderConfig',
      pathParams: tenantPath,
      responses: { 200: ScimServiceProviderConfig, ...errors },
      summary: 'What this SCIM service provider supports (RFC 7643 section 5)',
    },
    serviceConfiguration: {
      method: 'GET',
      path: '/serviceConfiguration',
      pathParams: tenantPath,
      responses: { 200: ScimServiceProviderConfig, ...errors },
      summary: 'The same as /ServiceProviderConfig, for clients that ask for this name',
      deprecated: true,
    },
    listResourceTypes: {
      method: 'GET',
      path: '/ResourceTypes',
      pathParams: tenantPath,
      responses: { 200: scimListResponse(ScimResourceType), ...errors },
      summary: 'The resource types served: User and Group',
    },
    getResourceType: {
      method: 'GET',
      path: '/ResourceTypes/:id',
      pathParams: resourcePath,
      responses: { 200: ScimResourceType, ...resourceErrors },
      summary: 'One resource type, by id (User or Group)',
    },
    listSchemas: {
      method: 'GET',
      path: '/Schemas',
      pathParams: tenantPath,
      responses: { 200: scimListResponse(ScimSchemaDefinition), ...errors },
      summary: 'The schemas served: User, EnterpriseUser, Group and the credential extension',
    },
    getSchema: {
      method: 'GET',
      path: '/Schemas/:id',
      pathParams: resourcePath,
      responses: { 200: ScimSchemaDefinition, ...resourceErrors },
      summary: 'One schema, by URN',
    },
  },
  {
    pathPrefix: '/tenants/:tenant/scim/v2',
    strictStatusCodes: true,
    metadata: { security: 'scim' } as const,
  },
);
