import type { createClient } from '../../clients/integrator/src/index.js';
import type { Person } from './pid-provider.js';

/**
 * An employee credential whose payload carries the employee's birth date, registered as an operator
 * registers a configuration: a PID's birth date then has something in the offer to be matched with
 * (the built-in LEARCredentialEmployee has none).
 */
export const DATED_EMPLOYEE = 'EmployeeWithBirthDate';

const text = { type: 'string', minLength: 1, maxLength: 200 };
const configuration = {
  payload_schema: {
    type: 'object',
    additionalProperties: false,
    required: ['mandatee'],
    properties: {
      mandatee: {
        type: 'object',
        additionalProperties: false,
        required: ['firstName', 'lastName', 'birthDate', 'email'],
        properties: { firstName: text, lastName: text, birthDate: { type: 'string' }, email: text },
      },
    },
  },
  selectively_disclosable: ['mandatee.birthDate'],
  validity_seconds: 86_400,
  display: [{ locale: 'en', name: 'Employee credential' }],
  claims: [],
};

/** Registers (or replaces) the configuration through the admin API. */
export async function registerDatedEmployee(service: ReturnType<typeof createClient>) {
  const res = await service.admin.putCredentialConfiguration({
    params: { configurationId: DATED_EMPLOYEE },
    body: configuration,
  });
  if (res.status !== 200) throw new Error(`configuration: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The payload of an offer of it for `person`, as the HR system knows them. */
export const datedEmployeePayload = (person: Person, email: string) => ({
  mandatee: {
    firstName: person.given_name,
    lastName: person.family_name,
    birthDate: person.birth_date,
    email,
  },
});
