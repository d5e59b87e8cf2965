import type { RegistrationCertificateRole } from '../../contract/admin/registration-certificate.js';

/**
 * Whether the registrar (provider of registration certificates) whose chain signed a certificate
 * may register parties of `role`: resolves when it may, throws an Error that says why not when it
 * may not. The caller turns the Error's message into the refusal the operator sees.
 */
export type VouchForRegistrar = (x5c: string[], role: RegistrationCertificateRole) => Promise<void>;

/**
 * THE one place that decides which registrars are trusted. For now it accepts every registrar: an
 * operator imports the certificate its national registrar issued, and wallets judge the registrar
 * themselves against the EU's list of registration certificate providers. Once tenants have trust
 * sources (ETSI TS 119 612 / 119 602 lists) with the service type `registrar`, those decide here,
 * and this function is replaced by one that asks them.
 */
export const vouchForRegistrar: VouchForRegistrar = async () => {};
