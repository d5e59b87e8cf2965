import { describe, expect, it } from 'vitest';
import type { ClaimMatch } from '../../contract/admin/holder-sign-in-presentation.js';
import { matchPresentedClaims } from '../../server/directory/match-presented-claims.js';

/** The rule a tenant sets for the EU PID (SD-JWT VC claim names) against its SCIM users and offers. */
const RULE: ClaimMatch[] = [
  { claim: ['family_name'], source: 'scim', field: 'name.familyName', compare: 'name' },
  { claim: ['given_name'], source: 'payload', field: 'mandatee.firstName', compare: 'name' },
  { claim: ['birthdate'], source: 'payload', field: 'mandatee.birthDate', compare: 'date' },
];
const scim = { name: { familyName: 'Muñoz  de la Peña' } };
const payload = { mandatee: { firstName: 'josé' } };

// "ñ" and "é" decomposed (NFD), as some directories and keyboards produce them.
const nfd = (s: string) => s.normalize('NFD');

describe('matching a presented credential’s claims with the holder’s record', () => {
  it('matches names across Unicode forms, case and spacing, and dates as written', () => {
    const rule = RULE.slice(0, 2);
    const claims = { family_name: ` ${nfd('MUÑOZ DE LA PEÑA')} `, given_name: nfd('José') };
    const out = matchPresentedClaims(rule, claims, { scim, payload });
    expect(out.results.map((r) => r.result)).toEqual(['matched', 'matched']);
    expect(out.matched).toBe(true);
  });

  it('case-folds as names need it (ß is SS) and refuses other letters', () => {
    const rule: ClaimMatch[] = [{ claim: ['family_name'], source: 'payload', field: 'n', compare: 'name' }];
    expect(matchPresentedClaims(rule, { family_name: 'STRASSE' }, { payload: { n: 'Straße' } }).matched).toBe(
      true,
    );
    expect(matchPresentedClaims(rule, { family_name: 'Munoz' }, { payload: { n: 'Muñoz' } }).matched).toBe(
      false,
    );
  });

  it('says which claim did not match, and which is missing on either side, without values', () => {
    const claims = { family_name: 'Muñoz de la Peña', given_name: 'Josefa' };
    const out = matchPresentedClaims(RULE, claims, { scim, payload });
    expect(out.matched).toBe(false);
    expect(out.results.map((r) => r.result)).toEqual(['matched', 'mismatched', 'missing']);
    expect(JSON.stringify(out.results)).not.toMatch(/Mu|Jos|1984/);
    // The record lacks the field: missing, never a match of two empty values.
    const none = matchPresentedClaims(RULE.slice(0, 1), { family_name: '' }, { scim: { name: {} } });
    expect(none.results[0]?.result).toBe('missing');
    // An issuer-initiated offer with no SCIM user behind it: a scim rule has nothing to compare.
    expect(matchPresentedClaims(RULE.slice(0, 1), claims, { payload }).results[0]?.result).toBe('missing');
  });

  it('compares dates exactly and only full-dates; paths reach into mdoc namespaces and arrays', () => {
    const date: ClaimMatch[] = [
      { claim: ['ns', 'birth_date'], source: 'payload', field: 'd.0', compare: 'date' },
    ];
    const at = (presented: unknown, known: unknown) =>
      matchPresentedClaims(date, { ns: { birth_date: presented } }, { payload: { d: [known] } }).results[0]
        ?.result;
    expect(at('1984-01-26', '1984-01-26')).toBe('matched');
    expect(at('1984-01-26', '1984-01-27')).toBe('mismatched');
    expect(at('1984-01-26T00:00:00Z', '1984-01-26')).toBe('mismatched');
    expect(at('1984-02-31', '1984-02-31')).toBe('mismatched');
    expect(at({ year: 1984 }, '1984-01-26')).toBe('mismatched');
    expect(at(undefined, '1984-01-26')).toBe('missing');
  });

  it('never reads inherited properties as claims', () => {
    const rule: ClaimMatch[] = [
      { claim: ['constructor'], source: 'payload', field: 'constructor', compare: 'exact' },
    ];
    expect(matchPresentedClaims(rule, {}, { payload: {} }).results[0]?.result).toBe('missing');
  });
});
