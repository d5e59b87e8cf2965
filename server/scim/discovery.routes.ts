import { type Request, Router } from 'express';
import type { AppContext } from '../app-context.js';
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  type ScimSchema,
  USER_SCHEMA,
} from './schema/scim-attributes.js';
import { ScimError } from './scim-error.js';
import { scimRequest } from './scim-request.js';
import { listResponse, sendScim } from './scim-response.js';
import { serviceProviderConfig } from './service-provider-config.js';
import { CREDENTIAL_EXTENSION_URN } from './user-view.js';

/** Our read-only extension, described like the RFC schemas so clients can discover it. */
const CREDENTIAL_SCHEMA: ScimSchema = {
  id: CREDENTIAL_EXTENSION_URN,
  name: 'Credential',
  description: 'Where the user’s verifiable credential stands (read-only)',
  attributes: [
    {
      name: 'status',
      type: 'string',
      multiValued: false,
      required: false,
      caseExact: true,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'none',
      canonicalValues: ['none', 'offered', 'valid', 'suspended', 'revoked'],
    },
    {
      name: 'issuanceId',
      type: 'string',
      multiValued: false,
      required: false,
      caseExact: true,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'credentialIds',
      type: 'string',
      multiValued: true,
      required: false,
      caseExact: true,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'credential',
      type: 'string',
      multiValued: false,
      required: false,
      caseExact: true,
      mutability: 'readOnly',
      returned: 'request',
      uniqueness: 'none',
    },
  ],
};

const SCHEMAS = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, CREDENTIAL_SCHEMA];

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
  return router;
}
