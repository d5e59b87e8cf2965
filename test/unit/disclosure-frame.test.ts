import { describe, expect, it } from 'vitest';
import { disclosureFrame } from '../../server/formats/sd-jwt-vc/disclosure-frame.js';

describe('disclosureFrame', () => {
  const payload = {
    mandator: { organization: 'ACME' },
    mandatee: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@acme.test' },
    power: [
      { function: 'A', action: ['x'] },
      { function: 'B', action: ['y'] },
    ],
  };

  it('makes named properties and every array element disclosable', () => {
    expect(disclosureFrame(['mandatee.firstName', 'mandatee.email', 'power[]'], payload)).toEqual({
      mandatee: { _sd: ['firstName', 'email'] },
      power: { _sd: [0, 1] },
    });
  });

  it('reaches into array elements and skips claims the payload lacks', () => {
    expect(disclosureFrame(['power[].function', 'mandatee.phone', 'nothing.here'], payload)).toEqual({
      power: { '0': { _sd: ['function'] }, '1': { _sd: ['function'] } },
    });
  });
});
