import type { Request, Response } from 'express';

/** Every SCIM answer is application/scim+json (RFC 7644 section 3.1). */
export function sendScim(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/scim+json').send(JSON.stringify(body));
}

/**
 * RFC 7644 section 3.5.2 lets a PATCH answer 200 with the resource or 204 without. We answer 204
 * (what Microsoft's SCIM test collection expects, and Entra accepts), and 200 with the resource when
 * the client shows it wants one by asking for `attributes` or `excludedAttributes`.
 */
export const patchStatus = (req: Request): 200 | 204 =>
  req.query.attributes !== undefined || req.query.excludedAttributes !== undefined ? 200 : 204;

/** RFC 7644 section 3.4.2: a page of resources with the exact total. */
export const listResponse = (resources: unknown[], totalResults = resources.length, startIndex = 1) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
