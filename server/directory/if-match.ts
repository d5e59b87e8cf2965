import { ScimError } from '../scim/scim-error.js';

export const etagOf = (version: number) => `W/"${version}"`;

/** RFC 7644 section 3.14: a write with If-Match that names no current version fails with 412. */
export function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (!ifMatch || ifMatch.trim() === '*') return;
  const tags = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (!tags.includes(`"${version}"`)) {
    throw new ScimError(412, 'the resource changed since the version in If-Match');
  }
}
