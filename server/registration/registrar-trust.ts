import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegistrationCertificateRole } from '../../contract/admin/registration-certificate.js';
import type { Trust } from '../trust/trust.js';
import { trustChain } from '../trust/trust-chain.js';

/**
 * Whether the registrar (provider of registration certificates) whose chain signed a certificate
 * may register parties of `role`: resolves when it may, throws an Error that says why not when it
 * may not. The caller turns the Error's message into the refusal the operator sees.
 */
export type VouchForRegistrar = (
  em: EntityManager,
  x5c: string[],
  role: RegistrationCertificateRole,
  tenantId?: string,
) => Promise<void>;

const REGISTRARS = { serviceTypes: ['registrar'] };

/**
 * A tenant that trusts registrars through its trust sources (service type `registrar`, the EUDI
 * lists of registration certificate providers) accepts only registration certificates whose chain
 * one of them lists; a tenant without such a source, and the deployment's issuer (which belongs to
 * no tenant), accept the certificate the operator imports, and wallets judge its registrar against
 * the lists themselves.
 */
export const registrarTrust =
  (trustOf: (em: EntityManager, tenantId: string) => Promise<Trust>): VouchForRegistrar =>
  async (em, x5c, _role, tenantId) => {
    if (!tenantId) return;
    const trust = await trustOf(em, tenantId);
    if (!trust.listed.some((l) => l.serviceType === 'registrar')) return;
    const now = Math.floor(Date.now() / 1000);
    trustChain(x5c, { anchors: [], listed: trust.listed }, REGISTRARS, { now, skewSeconds: 60 });
  };
