/**
 * The credential formats this service issues (OID4VCI 1.0 appendix A): IETF SD-JWT VC and ISO mdoc.
 * The wire names; what each means lives in the server's format modules.
 */
export const ISSUED_FORMATS = ['dc+sd-jwt', 'mso_mdoc'] as const;
export type IssuedFormat = (typeof ISSUED_FORMATS)[number];
