import { ConsolePageError } from '../console-errors.js';
import type { consoleOf } from '../console-guard.js';

/** A page of a SCIM list response (RFC 7644 section 3.4.2), as far as the console reads it. */
export interface ScimPage<T> {
  totalResults: number;
  Resources?: T[];
}

/**
 * A page of the tenant's SCIM Users or Groups, read through its SCIM endpoint with the session's
 * SCIM token (the console does nothing the token could not); else the page that says what could
 * not be read.
 */
export async function scimPage<T>(
  c: ReturnType<typeof consoleOf>,
  publicUrl: string,
  resource: 'Users' | 'Groups',
  query: URLSearchParams,
  unreadable: string,
): Promise<ScimPage<T>> {
  const url = `${publicUrl}/tenants/${encodeURIComponent(c.tenantId)}/scim/v2/${resource}?${query}`;
  const answer = await fetch(url, { headers: { authorization: `Bearer ${c.tenant.scimToken}` } });
  if (answer.status !== 200) throw new ConsolePageError(502, 'Not available', unreadable);
  return (await answer.json()) as ScimPage<T>;
}
