import type { ClaimsPathPointer, DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { issuingFormat } from '../formats/credential-formats.js';
import { sdJwtVcQuery } from '../formats/sd-jwt-vc/sd-jwt-vc-format.js';

/**
 * A DCQL query (OID4VP 1.0 §6) for one credential of `configuration`'s type with every claim its
 * configuration describes (wildcard components dropped: the verifier asks for the whole array).
 * Holder binding is required (the default). `id` names the credential in the `vp_token`.
 */
export function buildDcqlForConfiguration(
  configuration: CredentialConfiguration,
  issuerUrl: string,
  id = 'credential',
): DcqlQuery {
  const format = issuingFormat(configuration);
  const paths = configuration.claims.map((c) => c.path.filter((p): p is string | number => p !== null));
  return { credentials: [format.credentialQuery(format.typeOf(configuration, issuerUrl), paths, id)] };
}

/**
 * A DCQL query for one SD-JWT VC of type `vct` with the claims at `claimPaths`, e.g.
 * `buildDcqlForVct('https://issuer.example/LEARCredentialEmployee', [['mandatee', 'email']])`.
 * No paths: the credential with only its always-disclosed claims.
 */
export const buildDcqlForVct = (
  vct: string,
  claimPaths: ClaimsPathPointer[],
  id = 'credential',
): DcqlQuery => ({ credentials: [sdJwtVcQuery(vct, claimPaths, id)] });
