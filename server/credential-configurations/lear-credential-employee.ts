import type { CredentialConfiguration } from './credential-configuration.entity.js';

/**
 * The built-in employee credential (SPEC 2.1). Required: the whole mandator, the mandatee's first
 * name, last name and e-mail, and at least one power with a function and at least one action — a
 * credential without any of these cannot tell a verifier who may do what for whom.
 */
const text = { type: 'string', minLength: 1, maxLength: 200 };

/** The employee data both built-in employee credentials carry (the SD-JWT VC's payload). */
export const EMPLOYEE_PAYLOAD_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['mandator', 'mandatee', 'power'],
  properties: {
    mandator: {
      type: 'object',
      additionalProperties: false,
      required: ['organizationIdentifier', 'organization', 'commonName', 'email', 'country'],
      properties: {
        organizationIdentifier: text,
        organization: text,
        commonName: text,
        email: { type: 'string', format: 'email', maxLength: 254 },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
      },
    },
    mandatee: {
      type: 'object',
      additionalProperties: false,
      required: ['firstName', 'lastName', 'email'],
      properties: {
        firstName: text,
        lastName: text,
        email: { type: 'string', format: 'email', maxLength: 254 },
      },
    },
    power: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['function', 'action'],
        properties: {
          function: text,
          action: { type: 'array', minItems: 1, maxItems: 20, items: text },
        },
      },
    },
  },
};

export const LEAR_CREDENTIAL_EMPLOYEE: Omit<CredentialConfiguration, 'createdAt'> = {
  id: 'LEARCredentialEmployee',
  format: 'dc+sd-jwt',
  vct: null,
  doctype: null,
  builtin: true,
  validitySeconds: 365 * 24 * 3600,
  keyAttestationsRequired: null,
  selectivelyDisclosable: ['mandatee.firstName', 'mandatee.lastName', 'mandatee.email', 'power[]'],
  payloadSchema: EMPLOYEE_PAYLOAD_SCHEMA,
  display: [
    {
      locale: 'en',
      name: 'Employee credential',
      description: 'Who you are at your organisation and what you may do on its behalf',
      background_color: '#1f3a5f',
      text_color: '#ffffff',
    },
  ],
  claims: [
    {
      path: ['mandator', 'organization'],
      display: [{ locale: 'en', label: 'Organisation' }],
      mandatory: true,
      sd: 'never',
    },
    {
      path: ['mandator', 'organizationIdentifier'],
      display: [{ locale: 'en', label: 'Organisation identifier' }],
      sd: 'never',
    },
    { path: ['mandator', 'commonName'], display: [{ locale: 'en', label: 'Mandated by' }], sd: 'never' },
    { path: ['mandator', 'country'], display: [{ locale: 'en', label: 'Country' }], sd: 'never' },
    {
      path: ['mandatee', 'firstName'],
      display: [{ locale: 'en', label: 'First name' }],
      mandatory: true,
      sd: 'always',
    },
    {
      path: ['mandatee', 'lastName'],
      display: [{ locale: 'en', label: 'Last name' }],
      mandatory: true,
      sd: 'always',
    },
    {
      path: ['mandatee', 'email'],
      display: [{ locale: 'en', label: 'E-mail' }],
      mandatory: true,
      sd: 'always',
    },
    { path: ['power', null], display: [{ locale: 'en', label: 'Power' }], sd: 'always' },
  ],
};
