import type { Response } from 'express';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** An error of the SCIM API (RFC 7644 section 3.12): `status` is a string, `scimType` when one fits. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export function sendScimError(res: Response, e: ScimError): void {
  if (e.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="scim"');
  res
    .status(e.status)
    .type('application/scim+json')
    .send(
      JSON.stringify({
        schemas: [SCIM_ERROR_SCHEMA],
        status: String(e.status),
        ...(e.scimType ? { scimType: e.scimType } : {}),
        detail: e.detail,
      }),
    );
}
