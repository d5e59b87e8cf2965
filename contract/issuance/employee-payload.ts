import { z } from 'zod';
import { Mandator } from '../admin/tenant.js';

/**
 * The payload of the built-in `LEARCredentialEmployee` configuration (SPEC 2.1), as the typed client
 * sees it. The service checks every payload against its configuration's JSON Schema
 * (server/credential-configurations/lear-credential-employee.ts); this schema states the same rules
 * for the client's types and the OpenAPI document. Strict at every level, like the JSON Schema, so
 * that a payload with unknown members is not stripped here but refused there.
 */
const text = z.string().min(1).max(200);

export const EmployeePower = z
  .object({ function: text, action: z.array(text).min(1).max(20) })
  .strict()
  .describe('What the employee may do: a function and at least one action');

export const LearCredentialEmployeePayload = z
  .object({
    mandator: Mandator.strict().describe('The organisation that mandates the employee'),
    mandatee: z
      .object({ firstName: text, lastName: text, email: z.string().email().max(254) })
      .strict()
      .describe('The employee'),
    power: z.array(EmployeePower).min(1).max(50),
  })
  .strict()
  .describe('Payload of LEARCredentialEmployee');

export type LearCredentialEmployeePayload = z.infer<typeof LearCredentialEmployeePayload>;
export type EmployeePower = z.infer<typeof EmployeePower>;

/** Any other configuration's payload: an object checked against that configuration's payload_schema. */
export const OtherCredentialPayload = z
  .record(z.unknown())
  .describe("Payload of another configuration, checked against that configuration's payload_schema");

export const CredentialPayload = z.union([LearCredentialEmployeePayload, OtherCredentialPayload]);
