import type { CredentialConfiguration } from './credential-configuration.entity.js';
import { EMPLOYEE_PAYLOAD_SCHEMA, LEAR_CREDENTIAL_EMPLOYEE } from './lear-credential-employee.js';

/**
 * The document type of the employee mdoc, and its one namespace (ISO 18013-5 names both in reverse
 * domain notation; the `.1` is the version of the element set).
 */
export const EMPLOYEE_DOCTYPE = 'eu.credservice.employee.1';

const label = (en: string) => [{ locale: 'en', label: en }];

/**
 * The built-in employee credential as an ISO mdoc: the same employee data as the SD-JWT VC
 * (mandator, mandatee, power), one data element each in the namespace of its doctype, for wallets
 * that hold only mdocs. An mdoc discloses element by element, so the mandatee is disclosed whole
 * where the SD-JWT VC discloses its name and e-mail one by one.
 */
export const EMPLOYEE_MDOC: Omit<CredentialConfiguration, 'createdAt'> = {
  id: 'EmployeeMdoc',
  format: 'mso_mdoc',
  vct: null,
  doctype: EMPLOYEE_DOCTYPE,
  builtin: true,
  validitySeconds: LEAR_CREDENTIAL_EMPLOYEE.validitySeconds,
  keyAttestationsRequired: null,
  selectivelyDisclosable: [],
  payloadSchema: {
    type: 'object',
    additionalProperties: false,
    required: [EMPLOYEE_DOCTYPE],
    properties: { [EMPLOYEE_DOCTYPE]: EMPLOYEE_PAYLOAD_SCHEMA },
  },
  display: LEAR_CREDENTIAL_EMPLOYEE.display,
  claims: [
    { path: [EMPLOYEE_DOCTYPE, 'mandator'], display: label('Organisation'), mandatory: true },
    { path: [EMPLOYEE_DOCTYPE, 'mandatee'], display: label('Employee'), mandatory: true },
    { path: [EMPLOYEE_DOCTYPE, 'power'], display: label('Power'), mandatory: true },
  ],
};
