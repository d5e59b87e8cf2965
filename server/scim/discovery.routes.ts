import { type Request, Router } from 'express';
import type { AppContext } from '../app-context.js';
import { CREDENTIAL_EXTENSION_URN, CREDENTIAL_SCHEMA } from './schema/credential-extension.js';
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  type ScimAttribute,
  type ScimResourceType,
  type ScimSchema,
  USER_SCHEMA,
} from './schema/scim-attributes.js';
import { maxLengthOf } from './schema/value-limits.js';
import { ScimError, sendScimError } from './scim-error.js';
import { scimRequest } from './scim-request.js';
import { listResponse, sendScim } from './scim-response.js';
import { serviceProviderConfig } from './service-provider-config.js';

const SCHEMAS = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, CREDENTIAL_SCHEMA];
const TYPE_OF_SCHEMA = new Map<string, ScimResourceType>([
  [USER_SCHEMA.id, 'User'],
  [ENTERPRISE_USER_SCHEMA.id, 'User'],
  [GROUP_SCHEMA.id, 'Group'],
]);

/** Declares in each writable string attribute's description how long its value may be. */
function withLengthLimits(
  type: ScimResourceType,
  attributes: readonly ScimAttribute[],
  parent = '',
): unknown[] {
  return attributes.map((a) => {
    const path = `${parent}${a.name}`;
    if (a.subAttributes) return { ...a, subAttributes: withLengthLimits(type, a.subAttributes, `${path}.`) };
    if (a.type === 'boolean' || a.mutability === 'readOnly') return a;
    return { ...a, description: `At most ${maxLengthOf(type, path)} characters.` };
  });
}

/** /ServiceProviderConfig, /ResourceTypes and /Schemas (RFC 7644 section 4), each also by id. */
export function discoveryRouter(ctx: Pick<AppContext, 'config' | 'issuance'>): Router {
  const router = Router({ mergeParams: true });
  const { base } = scimRequest(ctx);
  const resourceTypes = (req: Request) => [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      schema: USER_SCHEMA.id,
      schemaExtensions: [
        { schema: ENTERPRISE_USER_SCHEMA.id, required: false },
        { schema: CREDENTIAL_EXTENSION_URN, required: false },
      ],
      meta: { resourceType: 'ResourceType', location: `${base(req)}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      schema: GROUP_SCHEMA.id,
      meta: { resourceType: 'ResourceType', location: `${base(req)}/ResourceTypes/Group` },
    },
  ];
  const schemaView = (req: Request, s: ScimSchema) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    ...s,
    attributes: ((type) => (type ? withLengthLimits(type, s.attributes) : s.attributes))(
      TYPE_OF_SCHEMA.get(s.id),
    ),
    meta: { resourceType: 'Schema', location: `${base(req)}/Schemas/${s.id}` },
  });

  // `/serviceConfiguration` is what Microsoft's SCIM test collection asks for.
  router.get(['/ServiceProviderConfig', '/serviceConfiguration'], serviceProviderConfig);
  router.get('/ResourceTypes', (req, res) => sendScim(res, 200, listResponse(resourceTypes(req))));
  router.get('/ResourceTypes/:id', (req, res) => {
    const found = resourceTypes(req).find((t) => t.id.toLowerCase() === String(req.params.id).toLowerCase());
    if (!found) throw new ScimError(404, `no resource type ${req.params.id}`);
    sendScim(res, 200, found);
  });
  router.get('/Schemas', (req, res) =>
    sendScim(res, 200, listResponse(SCHEMAS.map((s) => schemaView(req, s)))),
  );
  router.get('/Schemas/:id', (req, res) => {
    const found = SCHEMAS.find((s) => s.id.toLowerCase() === String(req.params.id).toLowerCase());
    if (!found) throw new ScimError(404, `no schema ${req.params.id}`);
    sendScim(res, 200, schemaView(req, found));
  });
  // RFC 7644 section 4: these endpoints only answer GET; anything else is 405 with what is allowed.
  router.all(
    [
      '/ServiceProviderConfig',
      '/serviceConfiguration',
      '/ResourceTypes',
      '/ResourceTypes/:id',
      '/Schemas',
      '/Schemas/:id',
    ],
    (req, res) => {
      res.setHeader('Allow', 'GET, HEAD');
      sendScimError(res, new ScimError(405, `${req.method} is not supported; this endpoint is read-only`));
    },
  );
  // Sections 3.7 and 3.11: a provider without bulk operations or /Me answers 501.
  router.all(['/Bulk', '/Me', '/Me/*'], (req, res) =>
    sendScimError(res, new ScimError(501, `${req.path} is not supported by this service provider`)),
  );
  return router;
}
