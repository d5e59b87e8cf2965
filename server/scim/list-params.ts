import { ScimError } from './scim-error.js';

export const MAX_RESULTS = 200;

export interface ListParams {
  filter?: string;
  startIndex: number;
  count: number;
  sortBy?: string;
  descending: boolean;
}

const integer = (v: unknown, name: string, fallback: number) => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new ScimError(400, `${name} must be an integer`, 'invalidValue');
  return n;
};

/**
 * RFC 7644 section 3.4.2: 1-based `startIndex` (below 1 means 1), `count` (negative means 0; more
 * than MAX_RESULTS is cut to it, as section 3.4.2.4 lets a provider do), `sortOrder` defaulting to
 * ascending.
 */
export function listParams(query: Record<string, unknown>): ListParams {
  const get = (name: string) => {
    const key = Object.keys(query).find((k) => k.toLowerCase() === name.toLowerCase());
    const v = key === undefined ? undefined : query[key];
    if (Array.isArray(v)) throw new ScimError(400, `${name} may be given once`, 'invalidValue');
    return v as string | undefined;
  };
  const sortOrder = get('sortOrder')?.toLowerCase();
  if (sortOrder && sortOrder !== 'ascending' && sortOrder !== 'descending') {
    throw new ScimError(400, 'sortOrder must be ascending or descending', 'invalidValue');
  }
  const filter = get('filter');
  const sortBy = get('sortBy');
  return {
    ...(filter ? { filter } : {}),
    ...(sortBy ? { sortBy } : {}),
    startIndex: Math.max(1, integer(get('startIndex'), 'startIndex', 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, integer(get('count'), 'count', 100))),
    descending: sortOrder === 'descending',
  };
}
