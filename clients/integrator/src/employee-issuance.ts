import type { IssuanceRequest, LearCredentialEmployeePayload } from '../../../contract/index.js';

/** An issuance of the built-in employee credential: everything but the configuration id. */
export type EmployeeIssuance = Omit<IssuanceRequest, 'credential_configuration_id' | 'payload'> & {
  payload: LearCredentialEmployeePayload;
};

/**
 * The body of `createIssuance` for `LEARCredentialEmployee`. The contract's `payload` must also
 * accept other configurations' payloads, so it cannot catch a missing mandatee at compile time;
 * this helper's parameter can.
 */
export function employeeIssuance(issuance: EmployeeIssuance): IssuanceRequest {
  return { credential_configuration_id: 'LEARCredentialEmployee', ...issuance };
}
