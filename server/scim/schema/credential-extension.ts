import { SCIM_CREDENTIAL_EXTENSION_URN } from '../../../contract/scim/scim-user.js';
import type { ScimAttribute, ScimSchema } from './scim-attributes.js';

/** Our read-only extension of User: where the user's verifiable credential stands (named by the contract). */
export const CREDENTIAL_EXTENSION_URN = SCIM_CREDENTIAL_EXTENSION_URN;

const readOnly = (name: string, more: Partial<ScimAttribute> = {}): ScimAttribute => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: true,
  mutability: 'readOnly',
  returned: 'default',
  uniqueness: 'none',
  ...more,
});

/** The extension described like the RFC schemas, so clients can discover it at /Schemas. */
export const CREDENTIAL_SCHEMA: ScimSchema = {
  id: CREDENTIAL_EXTENSION_URN,
  name: 'Credential',
  description: 'Where the user’s verifiable credential stands (read-only)',
  attributes: [
    readOnly('status', {
      canonicalValues: ['none', 'offered', 'awaiting_approval', 'valid', 'suspended', 'revoked'],
    }),
    readOnly('issuanceId'),
    readOnly('credentialIds', { multiValued: true }),
    // Why the user holds no current credential (none configured, data missing, deactivated, …).
    readOnly('reason', { caseExact: false }),
    // The signed credential of a tenant with direct delivery: in the answer of the write that
    // issued it, and on any read that asks for it by name (it is also how a credential renewed by
    // a group change reaches the integrator).
    readOnly('credential', { returned: 'request' }),
  ],
};
