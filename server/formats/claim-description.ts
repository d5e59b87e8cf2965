import type { ClaimMetadata } from '../credential-configurations/credential-configuration.entity.js';

/**
 * OID4VCI 1.0 appendix B.2 claim description, the same for every format (paths into the JSON
 * payload, or `[namespace, element]` of an mdoc): like SD-JWT VC claim metadata, but labels are `name`.
 */
export const claimDescription = (c: ClaimMetadata) => ({
  path: c.path,
  ...(c.mandatory !== undefined ? { mandatory: c.mandatory } : {}),
  ...(c.display ? { display: c.display.map((d) => ({ name: d.label, locale: d.locale })) } : {}),
});
