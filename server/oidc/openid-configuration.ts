import type { Config } from '../config.js';
import { ASSERTION_ALGORITHMS } from './client-authentication.js';

export const oidcEndpoints = (verifierUrl: string) => ({
  authorization: `${verifierUrl}/oauth2/authorize`,
  token: `${verifierUrl}/oauth2/token`,
  userinfo: `${verifierUrl}/oauth2/userinfo`,
  jwks: `${verifierUrl}/oauth2/jwks`,
});

/**
 * OpenID Connect Discovery 1.0 metadata of the verifier as an OpenID Provider. Users sign in by
 * presenting a credential from their wallet (authorization code flow with PKCE); relying parties are
 * registered per tenant by the operator. Codes of integrator sessions with a redirect_uri are
 * exchanged at the same token endpoint.
 */
export function openidConfiguration(config: Config) {
  const e = oidcEndpoints(config.verifierUrl);
  return {
    issuer: config.verifierUrl,
    authorization_endpoint: e.authorization,
    token_endpoint: e.token,
    userinfo_endpoint: e.userinfo,
    jwks_uri: e.jwks,
    scopes_supported: ['openid'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
    // Beyond these, each client's claims_mapping names the claims it receives.
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'credential_type',
      'credential',
    ],
  };
}
