import type { z } from 'zod';
import type { TrustServiceType } from '../../contract/admin/trust-source.js';

export type ServiceType = z.infer<typeof TrustServiceType>;

/**
 * Which of the lists' own service type identifiers each service type of a trust source stands for.
 * TS 119 602 (LoTE, the EUDI lists of PID, wallet, (Pub-)EAA and relying-party registration
 * providers): the `SvcType` URIs of its EU profiles; a list's revocation services are the ones that
 * sign its status lists. TS 119 612 (trusted lists): the EAA service types v2.3.1 added, and, for
 * issuers that seal with a qualified certificate, the qualified CA service (`CA/QC`).
 */
const LOTE = 'http://uri.etsi.org/19602/SvcType';
const TSL = 'http://uri.etsi.org/TrstSvc/Svctype';

export const LIST_SERVICE_TYPES: Record<ServiceType, readonly string[]> = {
  pid_provider: [`${LOTE}/PID/Issuance`],
  eaa_provider: [`${LOTE}/EAA/Issuance`, `${TSL}/EAA`],
  qeaa_provider: [`${TSL}/EAA/Q`, `${TSL}/CA/QC`],
  pub_eaa_provider: [`${LOTE}/PubEAA/Issuance`, `${TSL}/EAA/Pub-EAA`],
  wallet_provider: [`${LOTE}/WalletSolution/Issuance`],
  registrar: [`${LOTE}/WRPRC/Issuance`, `${LOTE}/WRPAC/Issuance`],
  status_list_signer: [
    `${LOTE}/PID/Revocation`,
    `${LOTE}/EAA/Revocation`,
    `${LOTE}/PubEAA/Revocation`,
    `${LOTE}/WalletSolution/Revocation`,
  ],
};

/** The service type of ours that a list's identifier stands for, among those a source is trusted for. */
export function serviceTypeOf(listType: string, trusted: readonly ServiceType[]): ServiceType | undefined {
  const normalized = listType.trim().replace(/\/$/, '');
  return trusted.find((t) => LIST_SERVICE_TYPES[t].includes(normalized));
}

/**
 * TS 119 612 service statuses under which a listed service vouches (5.5.4: granted, and the
 * national recognition of a non-qualified service); a withdrawn service does not. LoTE services
 * without a status are in force by being listed.
 */
const IN_FORCE = [
  'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted',
  'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/recognisedatnationallevel',
];

export const inForce = (status: string | undefined) =>
  status === undefined || IN_FORCE.includes(status.trim()) || /\/granted\/?$/.test(status.trim());

/** Who may sign a credential of some type: the issuing service types. */
export const ISSUER_SERVICE_TYPES: readonly ServiceType[] = [
  'pid_provider',
  'eaa_provider',
  'qeaa_provider',
  'pub_eaa_provider',
];
