import type { Request, Response } from 'express';

/** RFC 7643 section 5: what this SCIM service provider supports. */
export function serviceProviderConfig(req: Request, res: Response) {
  res.type('application/scim+json').send(
    JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: true },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'OAuth Bearer Token',
          description: 'The SCIM token the operator issued for this tenant',
          primary: true,
        },
      ],
      meta: {
        resourceType: 'ServiceProviderConfig',
        location: `${req.protocol}://${req.get('host')}${req.baseUrl}/ServiceProviderConfig`,
      },
    }),
  );
}
