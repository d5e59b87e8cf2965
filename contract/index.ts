import { initContract } from '@ts-rest/core';
import { adminContract } from './admin/admin-contract.js';
import { consoleContract } from './admin/console-contract.js';
import { registrationCertificateContract } from './admin/registration-certificate-contract.js';
import { trustSourceContract } from './admin/trust-source-contract.js';
import { trustedIssuerContract } from './admin/trusted-issuer-contract.js';
import { webhookContract } from './admin/webhook-contract.js';
import { transactionDataTypeContract } from './approvals/transaction-data-type.js';
import { healthContract } from './health-contract.js';
import { integratorContract } from './integrator-contract.js';
import { oid4vciContract } from './oid4vci/oid4vci-contract.js';
import { oid4vpContract } from './verification/oid4vp-contract.js';

export * from './admin/api-token.js';
export * from './admin/audit-event.js';
export * from './admin/console-contract.js';
export * from './admin/console-settings.js';
export * from './admin/signing-key.js';
export * from './admin/tenant.js';
export * from './admin/tenant-branding.js';
export * from './integrator-contract.js';
export * from './problem-details.js';
export { adminContract, healthContract, integratorContract };

const c = initContract();

/** The whole HTTP interface: one source for the server's routes, the typed client and OpenAPI. */
export const contract = c.router({
  health: healthContract,
  admin: adminContract,
  integrator: integratorContract,
  oid4vci: oid4vciContract,
  oid4vp: oid4vpContract,
  trustedIssuers: trustedIssuerContract,
  trustSources: trustSourceContract,
  transactionDataTypes: transactionDataTypeContract,
  registrationCertificates: registrationCertificateContract,
  webhooks: webhookContract,
  console: consoleContract,
});
export * from './admin/credential-configuration.js';
export * from './admin/provisioning.js';
export * from './admin/registration-certificate.js';
export * from './admin/registration-certificate-contract.js';
export * from './admin/trust-source-contract.js';
export * from './admin/trusted-issuer-contract.js';
export * from './admin/webhook.js';
export * from './admin/webhook-contract.js';
export * from './approvals/approval.js';
export * from './approvals/transaction-data-type.js';
export * from './issuance/employee-payload.js';
export * from './issuance/issuance.js';
export * from './issuance/issuance-request.js';
export * from './issuance/issuance-search.js';
export * from './oid4vci/credential-issuer-metadata.js';
export * from './oid4vci/credential-offer.js';
export * from './oid4vci/credential-request.js';
export * from './oid4vci/issuer-info.js';
export * from './oid4vci/nonce-response.js';
export * from './oid4vci/notification-request.js';
export * from './oid4vci/oauth-error-response.js';
export * from './oid4vci/oid4vci-contract.js';
export * from './oid4vci/token-request.js';
export * from './verification/authorization-request.js';
export * from './verification/oid4vp-contract.js';
