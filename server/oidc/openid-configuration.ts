import type { Config } from '../config.js';

export const oidcEndpoints = (verifierUrl: string) => ({
  token: `${verifierUrl}/oauth2/token`,
  jwks: `${verifierUrl}/oauth2/jwks`,
});

/**
 * OpenID Connect Discovery 1.0 metadata of the verifier. Codes come from the OID4VP redirect (the
 * wallet sends the user to the integrator's redirect_uri with `code` and `state`); the integrator
 * exchanges them here.
 */
export function openidConfiguration(config: Config) {
  const e = oidcEndpoints(config.verifierUrl);
  return {
    issuer: config.verifierUrl,
    token_endpoint: e.token,
    jwks_uri: e.jwks,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    claims_supported: ['sub', 'iss', 'aud', 'iat', 'exp', 'credential_type', 'credential'],
  };
}
