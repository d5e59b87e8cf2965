import type { ClaimMatch } from '../../contract/admin/holder-sign-in-presentation.js';

/**
 * How a presented claim is compared with the holder's record. Names: Unicode NFC (a PID may carry
 * "é" composed where the directory has it decomposed), trimmed, runs of white space as one, and
 * case folded (upper then lower, so "ß" equals "SS"). Dates: both RFC 3339 full-dates, equal as
 * written (a birth date has no time zone to convert). Exact: NFC and trimmed, nothing else.
 */
export type Comparison = ClaimMatch['compare'];

const FULL_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A claim or field with no value to compare: absent, null, or blank. */
export const isMissing = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Text of a scalar; objects and arrays have none (a rule must point at one value). */
const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? String(v).normalize('NFC').trim()
    : undefined;

const folded = (s: string) => s.replace(/\s+/g, ' ').toUpperCase().toLowerCase().normalize('NFC');

// A day that exists (Date would roll 1984-02-31 over into March).
const isFullDate = (s: string) =>
  FULL_DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** Whether two present values are equal under `comparison`. */
export function valuesMatch(comparison: Comparison, presented: unknown, known: unknown): boolean {
  const a = textOf(presented);
  const b = textOf(known);
  if (a === undefined || b === undefined) return false;
  switch (comparison) {
    case 'name':
      return folded(a) === folded(b);
    case 'date':
      return isFullDate(a) && a === b;
    case 'exact':
      return a === b;
  }
}
