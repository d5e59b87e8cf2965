import { describe, expect, it } from 'vitest';
import { DELIVERY_LISTS, IssuanceRequest } from '../../contract/index.js';
import { employeePayload } from '../support/fixtures.js';

/** The issuance request's schema: exact delivery values, and payloads passed on untouched. */
const request = (change: Record<string, unknown>) => ({
  credential_configuration_id: 'LEARCredentialEmployee',
  payload: employeePayload(),
  ...change,
});

describe('IssuanceRequest', () => {
  it('takes one delivery mode or several in any order, each once', () => {
    expect(DELIVERY_LISTS).toHaveLength(15);
    for (const delivery of ['ui', 'direct', 'email,ui', 'direct,ui,email'])
      expect(IssuanceRequest.safeParse(request({ delivery })).success).toBe(true);
  });

  it.each(['pigeon', 'ui,ui', 'ui,', 'UI', ''])('refuses delivery %j, saying what is allowed', (delivery) => {
    const parsed = IssuanceRequest.safeParse(request({ delivery }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['delivery'],
        message: 'one or more of ui, email, direct, comma-separated, each once',
      }),
    ]);
  });

  it('passes payloads on as sent, so that the configuration schema judges unknown members', () => {
    const withExtra = { ...employeePayload(), extra: true };
    const other = { anything: { nested: [1, 2] } };
    expect(IssuanceRequest.parse(request({ payload: withExtra })).payload).toEqual(withExtra);
    expect(IssuanceRequest.parse(request({ payload: other })).payload).toEqual(other);
    expect(IssuanceRequest.safeParse(request({ payload: 'text' })).success).toBe(false);
  });
});
