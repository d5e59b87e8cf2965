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
