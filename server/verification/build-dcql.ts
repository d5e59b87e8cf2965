import type { ClaimsPathPointer, DcqlQuery } from '../../contract/oid4vp/dcql-query.js';

/**
 * A DCQL query (OID4VP 1.0 §6) for one SD-JWT VC of type `vct` with the claims at `claimPaths`, e.g.
 * `buildDcqlForVct('https://issuer.example/LEARCredentialEmployee', [['mandatee', 'email']])`.
 * No paths: the credential with only its always-disclosed claims. Holder binding is required (the
 * default). `id` names the credential in the `vp_token`; default `credential`.
 */
export function buildDcqlForVct(vct: string, claimPaths: ClaimsPathPointer[], id = 'credential'): DcqlQuery {
  return {
    credentials: [
      {
        id,
        format: 'dc+sd-jwt',
        meta: { vct_values: [vct] },
        ...(claimPaths.length ? { claims: claimPaths.map((path) => ({ path: [...path] })) } : {}),
      },
    ],
  };
}
