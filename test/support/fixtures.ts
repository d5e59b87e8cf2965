import type { createIntegratorClient } from '../../clients/integrator/src/index.js';

/** A valid LEARCredentialEmployee payload (SPEC 2.1). */
export const employeePayload = () => ({
  mandator: {
    organizationIdentifier: 'VATES-B12345678',
    organization: 'ACME Corp',
    commonName: 'Jane Doe',
    email: 'jane.doe@acme.test',
    country: 'ES',
  },
  mandatee: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@acme.test' },
  power: [{ function: 'Onboarding', action: ['Execute'] }],
});

/** The parts of a credential offer the tests read. */
export interface CredentialOfferJson {
  credential_issuer: string;
  grants: Record<string, { 'pre-authorized_code': string; tx_code?: { length?: number } }>;
}

/**
 * A LEARCredentialEmployee issued with `delivery: 'direct'` (bound to `holderKey` when given): the
 * credential itself, or a thrown error.
 */
export async function issueDirectCredential(
  integrator: ReturnType<typeof createIntegratorClient>,
  holderKey?: object,
): Promise<string> {
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'direct',
      ...(holderKey && { holder_key: holderKey as never }),
    },
  });
  if (res.status !== 201 || !res.body.credential) throw new Error(`issuance: ${res.status}`);
  return res.body.credential;
}

/**
 * The provisioning settings SCIM tests use: the employee credential from the name and the primary
 * e-mail, `Employee: Identify` for everyone and `Purchasing: Approve` for members of `approvers`.
 */
export const approverProvisioning = (configurationId = 'LEARCredentialEmployee') => ({
  credential_configuration_id: configurationId,
  mappings: [
    { target: 'mandatee.firstName', source: 'name.givenName', required: true },
    { target: 'mandatee.lastName', source: 'name.familyName', required: true },
    { target: 'mandatee.email', source: 'emails[primary eq true].value', required: true },
  ],
  default_powers: [{ function: 'Employee', action: ['Identify'] }],
  group_powers: { approvers: [{ function: 'Purchasing', action: ['Approve'] }] },
  renew_on_every_put: false,
});
