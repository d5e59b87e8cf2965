import { TransactionDataType } from '../approvals/transaction-data-type.entity.js';
import { AuditEvent } from '../audit/audit-event.entity.js';
import { TenantConsole } from '../console/tenant-console.entity.js';
import { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { ScimGroup, ScimGroupMember } from '../directory/scim-group.entity.js';
import { ScimUser } from '../directory/scim-user.entity.js';
import { TenantProvisioning } from '../directory/tenant-provisioning.entity.js';
import { Issuance } from '../issuance/issuance.entity.js';
import { IssuedCredential } from '../issuance/issued-credential.entity.js';
import { SigningKey } from '../keys/signing-key.entity.js';
import { MailMessage } from '../mail/mail-message.entity.js';
import { Oid4vciAccessToken, Oid4vciNonce } from '../oid4vci/oid4vci-state.entity.js';
import { Oid4vciRefreshFamily, Oid4vciRefreshToken } from '../oid4vci/refresh/refresh-family.entity.js';
import { OidcAuthorization } from '../oidc/oidc-authorization.entity.js';
import { OidcClient } from '../oidc/oidc-client.entity.js';
import { OutboxMessage } from '../outbox/outbox-message.entity.js';
import { RegistrationCertificate } from '../registration/registration-certificate.entity.js';
import { StatusList, StatusListToken } from '../status-list/status-list.entity.js';
import { ApiToken } from '../tenants/api-token.entity.js';
import { HolderSignInPresentation } from '../tenants/holder-sign-in-presentation.entity.js';
import { HolderSignInProvider } from '../tenants/holder-sign-in-provider.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { TrustSourceRow } from '../trust/trust-source.entity.js';
import { PresentationSession } from '../verification/presentation-session.entity.js';
import { TrustAnchor } from '../verification/trust-anchor.entity.js';
import { TrustedIssuer } from '../verification/trusted-issuer.entity.js';

export const entities = [
  OidcClient,
  OidcAuthorization,
  PresentationSession,
  TrustedIssuer,
  TrustAnchor,
  TrustSourceRow,
  TransactionDataType,
  RegistrationCertificate,
  ScimUser,
  ScimGroup,
  ScimGroupMember,
  TenantProvisioning,
  CredentialConfiguration,
  Issuance,
  IssuedCredential,
  Oid4vciAccessToken,
  Oid4vciNonce,
  Oid4vciRefreshFamily,
  Oid4vciRefreshToken,
  Tenant,
  HolderSignInProvider,
  HolderSignInPresentation,
  TenantConsole,
  ApiToken,
  AuditEvent,
  OutboxMessage,
  MailMessage,
  SigningKey,
  StatusList,
  StatusListToken,
];
