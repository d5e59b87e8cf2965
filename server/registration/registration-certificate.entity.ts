import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { RegistrationCertificateRole } from '../../contract/admin/registration-certificate.js';

/**
 * A registration certificate (ETSI TS 119 475) an operator imported: a tenant's verifier has at
 * most one, the deployment's credential issuer at most one (`tenantId` null). The JWT is kept as
 * the registrar issued it, since wallets verify its signature; the rest is read from it at import.
 */
export const RegistrationCertificate = defineEntity({
  name: 'RegistrationCertificate',
  tableName: 'registration_certificate',
  properties: {
    id: p.uuid().primary(),
    role: p.enum(RegistrationCertificateRole.options),
    tenantId: p.string().nullable(),
    /** The compact JWS as imported. */
    jwt: p.text(),
    /** SHA-256 of the JWT, lowercase hex: how audit events name it. */
    sha256: p.string(),
    subject: p.text(),
    /** Subject of the registrar's signing certificate (x5c leaf). */
    issuer: p.text(),
    issuedAt: p.datetime().nullable(),
    /** The earlier of `exp` and the end of the signing certificate; null when neither ends it. */
    expiresAt: p.datetime().nullable(),
    importedAt: p.datetime(),
  },
});

export type RegistrationCertificate = InferEntity<typeof RegistrationCertificate>;
