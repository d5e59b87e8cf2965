import { initServer } from '@ts-rest/express';
import type { Logger } from 'pino';
import { registrationCertificateContract as contract } from '../../contract/admin/registration-certificate-contract.js';
import { notFound } from '../domain-errors.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import {
  importRegistrationCertificate,
  type RegistrationDeps,
  removeOwnRegistrationCertificate,
} from './import-registration-certificate.js';
import { findRegistrationCertificate, registrationCertificateView } from './registration-certificates.js';

const s = initServer();

/**
 * Operators import the registration certificates their registrar issued: a tenant's verifier's
 * (audited in the tenant's log) and the credential issuer's (logged: it belongs to no tenant).
 */
export function adminRegistrationCertificateRoutes(deps: RegistrationDeps, logger: Pick<Logger, 'info'>) {
  const issuer = { role: 'issuer' as const };
  return s.router(contract, {
    getVerifierRegistrationCertificate: async ({ params, req }) => {
      await getTenant(req.em, params.id);
      const row = await findRegistrationCertificate(req.em, 'verifier', params.id);
      if (!row) throw notFound(`a verifier registration certificate of tenant ${params.id}`);
      return { status: 200, body: registrationCertificateView(row) };
    },
    putVerifierRegistrationCertificate: async ({ params, body, req }) => {
      const owner = { role: 'verifier' as const, tenant: await getTenant(req.em, params.id) };
      const row = await importRegistrationCertificate(req.em, deps, owner, body.certificate, adminActor(req));
      return { status: 200, body: registrationCertificateView(row) };
    },
    deleteVerifierRegistrationCertificate: async ({ params, req }) => {
      const owner = { role: 'verifier' as const, tenant: await getTenant(req.em, params.id) };
      await removeOwnRegistrationCertificate(req.em, owner, adminActor(req));
      return { status: 204, body: undefined };
    },
    getIssuerRegistrationCertificate: async ({ req }) => {
      const row = await findRegistrationCertificate(req.em, 'issuer', null);
      if (!row) throw notFound('an issuer registration certificate');
      return { status: 200, body: registrationCertificateView(row) };
    },
    putIssuerRegistrationCertificate: async ({ body, req }) => {
      const row = await importRegistrationCertificate(
        req.em,
        deps,
        issuer,
        body.certificate,
        adminActor(req),
      );
      logger.info(
        { actor: adminActor(req), sha256: row.sha256, subject: row.subject, registrar: row.issuer },
        'issuer registration certificate imported',
      );
      return { status: 200, body: registrationCertificateView(row) };
    },
    deleteIssuerRegistrationCertificate: async ({ req }) => {
      const sha256 = await removeOwnRegistrationCertificate(req.em, issuer, adminActor(req));
      logger.info({ actor: adminActor(req), sha256 }, 'issuer registration certificate removed');
      return { status: 204, body: undefined };
    },
  });
}
