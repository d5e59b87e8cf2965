/**
 * The service type URIs (`ServiceInformation.ServiceTypeIdentifier`) of the EU lists of trusted entities
 * defined in ETSI TS 119 602 V1.1.1, in its annexes on the EU lists (PID providers, wallet providers,
 * WRPAC providers, WRPRC providers, EAA and PuB-EAA providers). They are copied from the allowed service
 * types of the profile schemas of `@owf/eudi-lote` 0.2.0 (`EUPIDProvidersListSchema` and its siblings),
 * which follow those annexes; the library does not export them as constants. The mDL providers list is the
 * European Commission's, not ETSI's, and is listed apart.
 *
 * A LoTE reader hands these through untouched (server/trust/lists/read-list.ts); which of them a tenant
 * trusts for what is decided by its trust source.
 */
const SVC_TYPE = 'http://uri.etsi.org/19602/SvcType';

export const LOTE_SERVICE_TYPES = {
  /** A PID provider's issuing service (the certificates that sign PIDs or their issuing CAs). */
  pidIssuance: `${SVC_TYPE}/PID/Issuance`,
  /** A PID provider's revocation service (status lists, revocation lists). */
  pidRevocation: `${SVC_TYPE}/PID/Revocation`,
  /** A wallet provider's wallet unit attestation issuance. */
  walletSolutionIssuance: `${SVC_TYPE}/WalletSolution/Issuance`,
  walletSolutionRevocation: `${SVC_TYPE}/WalletSolution/Revocation`,
  /** Providers of wallet-relying party access certificates. */
  wrpacIssuance: `${SVC_TYPE}/WRPAC/Issuance`,
  wrpacRevocation: `${SVC_TYPE}/WRPAC/Revocation`,
  /** Providers of wallet-relying party registration certificates. */
  wrprcIssuance: `${SVC_TYPE}/WRPRC/Issuance`,
  wrprcRevocation: `${SVC_TYPE}/WRPRC/Revocation`,
  /** Non-qualified electronic attestation of attributes providers. */
  eaaIssuance: `${SVC_TYPE}/EAA/Issuance`,
  eaaRevocation: `${SVC_TYPE}/EAA/Revocation`,
  /** Public sector bodies issuing electronic attestations of attributes (PuB-EAA). */
  pubEaaIssuance: `${SVC_TYPE}/PubEAA/Issuance`,
  pubEaaRevocation: `${SVC_TYPE}/PubEAA/Revocation`,
} as const;

/** The European Commission's mDL providers list (`mDLProvidersListSchema` in the same library). */
export const MDL_SERVICE_TYPES = {
  issuance: 'http://trust.ec.europa.eu/lists/mDL/SvcType/Issuance',
  revocation: 'http://trust.ec.europa.eu/lists/mDL/SvcType/Revocation',
} as const;

export type LoteServiceType = (typeof LOTE_SERVICE_TYPES)[keyof typeof LOTE_SERVICE_TYPES];
