import type { ClaimsPathPointer, CredentialQuery } from '../../../contract/oid4vp/dcql-query.js';
import { claimDescription } from '../claim-description.js';
import type { CredentialFormat } from '../credential-format.js';
import { issueSdJwtVc } from './issue-sd-jwt-vc.js';
import { typeMetadata } from './type-metadata.js';
import { vctOf } from './vct.js';
import { verifySdJwtPresentation } from './verify-sd-jwt-presentation.js';

const ES256 = ['ES256'];

/**
 * A DCQL Credential Query (OID4VP 1.0 section 6.1, appendix B.3.5) for one SD-JWT VC of type `vct`
 * with the claims at `paths`; none: the credential with only its always-disclosed claims.
 */
export const sdJwtVcQuery = (vct: string, paths: ClaimsPathPointer[], id: string): CredentialQuery => ({
  id,
  format: 'dc+sd-jwt',
  meta: { vct_values: [vct] },
  ...(paths.length ? { claims: paths.map((path) => ({ path: [...path] })) } : {}),
});

/** IETF SD-JWT VC (`dc+sd-jwt`): OID4VCI 1.0 appendix A.3, OID4VP 1.0 appendix B.3, HAIP 1.0 section 6. */
export const sdJwtVcFormat: CredentialFormat = {
  id: 'dc+sd-jwt',
  haip: true,
  bindsTransactionData: true,
  vpFormatsSupported: () => ({ 'sd-jwt_alg_values': ES256, 'kb-jwt_alg_values': ES256 }),
  verifyPresentation: verifySdJwtPresentation,
  issuing: {
    typeOf: vctOf,
    describeConfiguration: (c, issuerUrl, shared) => ({
      ...shared,
      format: 'dc+sd-jwt' as const,
      vct: vctOf(c, issuerUrl),
      cryptographic_binding_methods_supported: ['jwk'],
      credential_signing_alg_values_supported: ES256,
      credential_metadata: { display: c.display, claims: c.claims.map(claimDescription) },
    }),
    signCredential: (signer, input) =>
      issueSdJwtVc(signer, {
        issuer: input.issuerUrl,
        vct: vctOf(input.configuration, input.issuerUrl),
        claims: input.claims,
        selectivelyDisclosable: input.configuration.selectivelyDisclosable,
        issuedAt: input.issuedAt,
        expiresAt: input.expiresAt,
        status: input.status,
        holderJwk: input.holderJwk as Record<string, unknown> | undefined,
      }),
    credentialQuery: sdJwtVcQuery,
    holderBindingRequired: false,
    employeeSchema: (c) => c.payloadSchema,
    payloadFromEmployee: (_c, employee) => employee,
    typeMetadata,
  },
};
