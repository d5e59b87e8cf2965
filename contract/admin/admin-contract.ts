import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { OidcClientCreated, OidcClientCreateRequest, OidcClientList } from '../oidc/oidc-client.js';
import { ProblemDetails } from '../problem-details.js';
import { ApiTokenCreated, ApiTokenCreateRequest, ApiTokenInfo, ApiTokenList } from './api-token.js';
import {
  AuditChainVerification,
  AuditEventPage,
  AuditEventQuery,
  AuditExportQueued,
  AuditExportState,
} from './audit-event.js';
import {
  ConfigurationId,
  CredentialConfigurationInfo,
  CredentialConfigurationInput,
  CredentialConfigurationList,
} from './credential-configuration.js';
import { HolderSignInPresentation, HolderSignInPresentationInput } from './holder-sign-in-presentation.js';
import { HolderSignInProvider, HolderSignInProviderInput } from './holder-sign-in-provider.js';
import { ProvisioningSettings } from './provisioning.js';
import {
  CertificateChainImport,
  CertificateSigningRequestCreated,
  CertificateSigningRequestInput,
  DevelopmentCaInfo,
  KeyPurpose,
  Kid,
  SigningKeyEventList,
  SigningKeyEventQuery,
  SigningKeyInfo,
  SigningKeyList,
} from './signing-key.js';
import {
  Paging,
  Tenant,
  TenantCreated,
  TenantCreateRequest,
  TenantDetail,
  TenantId,
  TenantList,
  TenantUpdateRequest,
} from './tenant.js';

const c = initContract();
// Ids are checked here, in the contract: a malformed one is a 400, and never reaches a uuid column.
const tenantPath = z.object({ id: TenantId });
const notFound = { 401: ProblemDetails, 404: ProblemDetails };

/** The operator's API: tenants, their tokens and audit log, and the service's signing keys. */
export const adminContract = c.router(
  {
    createTenant: {
      method: 'POST',
      path: '/tenants',
      body: TenantCreateRequest,
      responses: { 201: TenantCreated, 400: ProblemDetails, 401: ProblemDetails, 409: ProblemDetails },
      summary: 'Create a tenant with its first integrator and SCIM tokens',
    },
    listTenants: {
      method: 'GET',
      path: '/tenants',
      query: Paging,
      responses: { 200: TenantList, 400: ProblemDetails, 401: ProblemDetails },
      summary: 'List tenants',
    },
    getTenant: {
      method: 'GET',
      path: '/tenants/:id',
      pathParams: tenantPath,
      responses: { 200: TenantDetail, ...notFound },
      summary: 'Read a tenant, with warnings about what keeps it from working as set up',
    },
    updateTenant: {
      method: 'PATCH',
      path: '/tenants/:id',
      pathParams: tenantPath,
      body: TenantUpdateRequest,
      responses: { 200: Tenant, 400: ProblemDetails, ...notFound },
      summary: 'Change a tenant’s name, delivery mode or mandator',
    },
    listTokens: {
      method: 'GET',
      path: '/tenants/:id/tokens',
      pathParams: tenantPath,
      responses: { 200: ApiTokenList, ...notFound },
      summary: 'List a tenant’s tokens (never their secrets)',
    },
    createToken: {
      method: 'POST',
      path: '/tenants/:id/tokens',
      pathParams: tenantPath,
      body: ApiTokenCreateRequest,
      responses: { 201: ApiTokenCreated, 400: ProblemDetails, ...notFound },
      summary: 'Issue a new integrator or SCIM token; older ones stay valid until revoked',
    },
    revokeToken: {
      method: 'POST',
      path: '/tenants/:id/tokens/:tokenId/revoke',
      pathParams: z.object({ id: TenantId, tokenId: z.string().uuid() }),
      body: c.noBody(),
      responses: { 200: ApiTokenInfo, ...notFound },
      summary: 'Revoke a token',
    },
    listAuditEvents: {
      method: 'GET',
      path: '/tenants/:id/audit-events',
      pathParams: tenantPath,
      query: AuditEventQuery,
      responses: { 200: AuditEventPage, 400: ProblemDetails, ...notFound },
      summary: 'Read a tenant’s audit log, oldest first, filtered by action and time',
    },
    verifyAuditChain: {
      method: 'GET',
      path: '/tenants/:id/audit-events/verification',
      pathParams: tenantPath,
      responses: { 200: AuditChainVerification, ...notFound },
      summary: 'Recompute the tenant’s audit hash chain and report the first broken link',
    },
    getAuditExport: {
      method: 'GET',
      path: '/tenants/:id/audit-export',
      pathParams: tenantPath,
      responses: { 200: AuditExportState, ...notFound },
      summary: 'How far the tenant’s audit events have been exported',
    },
    requestAuditExport: {
      method: 'POST',
      path: '/tenants/:id/audit-export',
      pathParams: tenantPath,
      body: c.noBody(),
      responses: { 202: AuditExportQueued, ...notFound },
      summary: 'Export the tenant’s new audit events now (NDJSON, incremental, to the configured sink)',
    },
    getProvisioning: {
      method: 'GET',
      path: '/tenants/:id/provisioning',
      pathParams: tenantPath,
      responses: { 200: ProvisioningSettings, ...notFound },
      summary: 'How the tenant’s SCIM users become credentials (defaults until set)',
    },
    putProvisioning: {
      method: 'PUT',
      path: '/tenants/:id/provisioning',
      pathParams: tenantPath,
      body: ProvisioningSettings,
      responses: { 200: ProvisioningSettings, 400: ProblemDetails, ...notFound },
      summary: 'Set the credential configuration, attribute mappings and powers of the tenant’s SCIM users',
    },
    getHolderSignInProvider: {
      method: 'GET',
      path: '/tenants/:id/holder-sign-in-provider',
      pathParams: tenantPath,
      responses: { 200: HolderSignInProvider, ...notFound },
      summary:
        'The OpenID provider the tenant’s holders sign in at to receive credentials (404: none, e-mail code)',
    },
    putHolderSignInProvider: {
      method: 'PUT',
      path: '/tenants/:id/holder-sign-in-provider',
      pathParams: tenantPath,
      body: HolderSignInProviderInput,
      responses: { 200: HolderSignInProvider, 400: ProblemDetails, ...notFound },
      summary:
        'Let the tenant’s holders sign in at its own OpenID provider (Entra ID, Okta) instead of by e-mail code',
    },
    deleteHolderSignInProvider: {
      method: 'DELETE',
      path: '/tenants/:id/holder-sign-in-provider',
      pathParams: tenantPath,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...notFound },
      summary: 'Back to the mailed one-time code for the tenant’s holders',
    },
    getHolderSignInPresentation: {
      method: 'GET',
      path: '/tenants/:id/holder-sign-in-presentation',
      pathParams: tenantPath,
      responses: { 200: HolderSignInPresentation, ...notFound },
      summary:
        'The credential the tenant’s holders present to sign in for issuance, and its match rule (404: none)',
    },
    putHolderSignInPresentation: {
      method: 'PUT',
      path: '/tenants/:id/holder-sign-in-presentation',
      pathParams: tenantPath,
      body: HolderSignInPresentationInput,
      responses: { 200: HolderSignInPresentation, 400: ProblemDetails, ...notFound },
      summary:
        'Let the tenant’s holders sign in by presenting a credential (e.g. the EU PID) whose claims match their record',
    },
    deleteHolderSignInPresentation: {
      method: 'DELETE',
      path: '/tenants/:id/holder-sign-in-presentation',
      pathParams: tenantPath,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...notFound },
      summary: 'Stop asking the tenant’s holders for a presentation at issuance sign-in',
    },
    createOidcClient: {
      method: 'POST',
      path: '/tenants/:id/oidc-clients',
      pathParams: tenantPath,
      body: OidcClientCreateRequest,
      responses: { 201: OidcClientCreated, 400: ProblemDetails, ...notFound },
      summary: 'Register a relying party that signs its users in with their credential (OpenID Connect)',
    },
    listOidcClients: {
      method: 'GET',
      path: '/tenants/:id/oidc-clients',
      pathParams: tenantPath,
      responses: { 200: OidcClientList, ...notFound },
      summary: 'List the tenant’s relying parties (never their secrets)',
    },
    deleteOidcClient: {
      method: 'DELETE',
      path: '/tenants/:id/oidc-clients/:clientId',
      pathParams: z.object({ id: TenantId, clientId: z.string().min(1).max(200) }),
      body: c.noBody(),
      responses: { 204: c.noBody(), ...notFound },
      summary: 'Remove a relying party; its pending logins and tokens stop working',
    },
    listCredentialConfigurations: {
      method: 'GET',
      path: '/credential-configurations',
      responses: { 200: CredentialConfigurationList, 401: ProblemDetails },
      summary: 'Credential configurations the issuer can issue',
    },
    getCredentialConfiguration: {
      method: 'GET',
      path: '/credential-configurations/:configurationId',
      pathParams: z.object({ configurationId: ConfigurationId }),
      responses: { 200: CredentialConfigurationInfo, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Read a credential configuration',
    },
    putCredentialConfiguration: {
      method: 'PUT',
      path: '/credential-configurations/:configurationId',
      pathParams: z.object({ configurationId: ConfigurationId }),
      body: CredentialConfigurationInput,
      responses: {
        200: CredentialConfigurationInfo,
        400: ProblemDetails,
        401: ProblemDetails,
        409: ProblemDetails,
      },
      summary: 'Register or replace a credential configuration (built-in ones cannot be replaced)',
    },
    listSigningKeys: {
      method: 'GET',
      path: '/keys',
      responses: { 200: SigningKeyList, 401: ProblemDetails },
      summary: 'List signing keys (public parts only)',
    },
    rotateSigningKey: {
      method: 'POST',
      path: '/keys/:purpose/rotate',
      pathParams: z.object({ purpose: KeyPurpose }),
      body: c.noBody(),
      responses: { 201: SigningKeyInfo, 400: ProblemDetails, 401: ProblemDetails, 503: ProblemDetails },
      summary: 'Make a new active key for a purpose; the previous one keeps verifying as retiring',
    },
    rotateAllSigningKeys: {
      method: 'POST',
      path: '/keys/rotate-all',
      body: c.noBody(),
      responses: { 201: SigningKeyList, 401: ProblemDetails, 503: ProblemDetails },
      summary:
        'Rotate every purpose into the configured key store (how software keys move to an HSM); old keys stay published as retiring',
    },
    retireSigningKey: {
      method: 'POST',
      path: '/keys/:kid/retire',
      pathParams: z.object({ kid: Kid }),
      body: c.noBody(),
      responses: { 200: SigningKeyInfo, 401: ProblemDetails, 404: ProblemDetails, 409: ProblemDetails },
      summary: 'Stop publishing and using a retiring key (the active key cannot be retired: rotate first)',
    },
    destroySigningKey: {
      method: 'POST',
      path: '/keys/:kid/destroy',
      pathParams: z.object({ kid: Kid }),
      body: c.noBody(),
      responses: {
        200: SigningKeyInfo,
        401: ProblemDetails,
        404: ProblemDetails,
        409: ProblemDetails,
        503: ProblemDetails,
      },
      summary:
        'Destroy a retired key’s private part for good (C_DestroyObject in the token; the sealed copy of a local key)',
    },
    listSigningKeyEvents: {
      method: 'GET',
      path: '/keys/events',
      query: SigningKeyEventQuery,
      responses: { 200: SigningKeyEventList, 400: ProblemDetails, 401: ProblemDetails },
      summary: 'The life of the signing keys: generated, rotated, CSR, chain imported, retired, destroyed',
    },
    getDevelopmentCa: {
      method: 'GET',
      path: '/keys/development-ca',
      responses: { 200: DevelopmentCaInfo, 401: ProblemDetails },
      summary:
        'The root of the development CA that certifies keys without an imported chain (trust it in tests)',
    },
    createCertificateSigningRequest: {
      method: 'POST',
      path: '/keys/:purpose/csr',
      pathParams: z.object({ purpose: KeyPurpose }),
      body: CertificateSigningRequestInput,
      responses: {
        200: CertificateSigningRequestCreated,
        400: ProblemDetails,
        401: ProblemDetails,
        503: ProblemDetails,
      },
      summary: 'A PKCS#10 request for the active key of a purpose, for a CA to certify',
    },
    importCertificateChain: {
      method: 'PUT',
      path: '/keys/:kid/certificate-chain',
      pathParams: z.object({ kid: Kid }),
      body: CertificateChainImport,
      responses: {
        200: SigningKeyInfo,
        400: ProblemDetails,
        401: ProblemDetails,
        404: ProblemDetails,
        409: ProblemDetails,
      },
      summary:
        'Make a CA-issued chain the key’s x5c (checked: the key’s public key, not self-signed, valid now)',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);
