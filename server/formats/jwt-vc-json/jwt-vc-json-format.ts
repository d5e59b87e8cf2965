import type { CredentialFormat } from '../credential-format.js';
import { verifyJwtVcPresentation } from './verify-jwt-vp.js';

/** W3C VCDM credentials as JWTs (`jwt_vc_json`, OID4VP 1.0 appendix B.1): verified, never issued here. */
export const jwtVcJsonFormat: CredentialFormat = {
  id: 'jwt_vc_json',
  haip: false,
  bindsTransactionData: false,
  vpFormatsSupported: () => ({ alg_values: ['ES256'] }),
  verifyPresentation: verifyJwtVcPresentation,
};
