import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from '../problem-details.js';
import { RegistrationCertificate, RegistrationCertificateImport } from './registration-certificate.js';
import { TenantId } from './tenant.js';

const c = initContract();
const tenantPath = z.object({ id: TenantId });
const errors = { 401: ProblemDetails, 404: ProblemDetails };

/**
 * Registration certificates (ETSI TS 119 475) that a national registrar issued to the parties this
 * deployment plays: each tenant's verifier, sent to wallets as `verifier_info` in its request
 * objects (OpenID4VP 1.0 section 5.1), and the credential issuer, published as `issuer_info` in its
 * metadata (ETSI TS 119 472-3). The issuer metadata is one per deployment, so is its certificate.
 */
export const registrationCertificateContract = c.router(
  {
    getVerifierRegistrationCertificate: {
      method: 'GET',
      path: '/tenants/:id/registration-certificates/verifier',
      pathParams: tenantPath,
      responses: { 200: RegistrationCertificate, ...errors },
      summary: 'The registration certificate the tenant’s request objects carry (404: none)',
    },
    putVerifierRegistrationCertificate: {
      method: 'PUT',
      path: '/tenants/:id/registration-certificates/verifier',
      pathParams: tenantPath,
      body: RegistrationCertificateImport,
      responses: { 200: RegistrationCertificate, 400: ProblemDetails, ...errors },
      summary:
        'Import (or replace) the tenant’s verifier registration certificate; new request objects carry it as verifier_info',
    },
    deleteVerifierRegistrationCertificate: {
      method: 'DELETE',
      path: '/tenants/:id/registration-certificates/verifier',
      pathParams: tenantPath,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
      summary: 'Remove the tenant’s verifier registration certificate; new request objects carry none',
    },
    getIssuerRegistrationCertificate: {
      method: 'GET',
      path: '/registration-certificates/issuer',
      responses: { 200: RegistrationCertificate, ...errors },
      summary: 'The registration certificate the issuer metadata carries (404: none)',
    },
    putIssuerRegistrationCertificate: {
      method: 'PUT',
      path: '/registration-certificates/issuer',
      body: RegistrationCertificateImport,
      responses: { 200: RegistrationCertificate, 400: ProblemDetails, 401: ProblemDetails },
      summary:
        'Import (or replace) the credential issuer’s registration certificate; its metadata carries it as issuer_info',
    },
    deleteIssuerRegistrationCertificate: {
      method: 'DELETE',
      path: '/registration-certificates/issuer',
      body: c.noBody(),
      responses: { 204: c.noBody(), ...errors },
      summary: 'Remove the credential issuer’s registration certificate from its metadata',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);
