import { ScimError } from './scim-error.js';

export const MAX_RESULTS = 200;

export interface ListParams {
  filter?: string;
  startIndex: number;
  count: number;
  sortBy?: string;
  descending: boolean;
}

/** A number as JSON writes one (a leading `+` too): digits, an optional fraction, an optional exponent. */
const NUMBER = /^[+-]?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Whether a number literal's value is a whole number, decided on its digits: `1e99` and
 * `99999999999999999999` are integers, `1.5` and `1e-400` are not, whatever a double makes of them.
 */
function isIntegerLiteral(v: string): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = NUMBER.exec(v) ?? [];
  const digits = (whole + fraction).replace(/0+$/, '');
  if (!/[1-9]/.test(digits)) return true;
  // Every significant digit must stand before the point once the exponent has moved it.
  return whole.length + Number(exponent) >= digits.length;
}

/**
 * An integer parameter, held between ±Number.MAX_SAFE_INTEGER: a value past that is far past any
 * list's end (or before its start) and would be neither exact in JavaScript nor a PostgreSQL bigint
 * once it reached the SQL paging (a 500 before), so it is read as the largest one that is.
 */
const integer = (v: string | undefined, name: string, fallback: number) => {
  if (v === undefined || v === '') return fallback;
  if (!NUMBER.test(v) || !isIntegerLiteral(v)) {
    throw new ScimError(400, `${name} must be an integer`, 'invalidValue');
  }
  const n = Number(v);
  return Math.sign(n) * Math.min(Math.abs(n), Number.MAX_SAFE_INTEGER);
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
    // `sortOrder[a]=b` is parsed into an object, which no parameter here can be.
    if (v !== undefined && typeof v !== 'string')
      throw new ScimError(400, `${name} must be text`, 'invalidValue');
    return v;
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
