import { APPROVAL_TRANSACTION_TYPE } from '../../contract/approvals/approval.js';
import { PRE_AUTHORIZED_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import { ASSERTION_ALGORITHMS } from './client-authentication.js';
import { requiresPar, type ServedRoles } from './served-roles.js';

export const oidcEndpoints = (verifierUrl: string) => ({
  authorization: `${verifierUrl}/oauth2/authorize`,
  token: `${verifierUrl}/oauth2/token`,
  pushedAuthorizationRequest: `${verifierUrl}/oauth2/par`,
  userinfo: `${verifierUrl}/oauth2/userinfo`,
  jwks: `${verifierUrl}/oauth2/jwks`,
});

/**
 * The metadata of the authorization server at one origin, served unchanged both as OpenID Connect
 * Discovery 1.0 (`/.well-known/openid-configuration`) and as RFC 8414
 * (`/.well-known/oauth-authorization-server`): both are derived from the same issuer identifier, so
 * they must describe the same server. Wallets differ in which one they read first (Sphereon's
 * client reads openid-configuration, @openid4vc reads oauth-authorization-server); either way they
 * find one token endpoint, `/oauth2/token`, that takes every grant listed.
 *
 * As the credential issuer's authorization server it takes the pre-authorized code without client
 * authentication (OID4VCI 1.0 section 12.3). As the verifier's OpenID provider, users sign in by
 * presenting a credential (authorization code flow with PKCE) for relying parties registered per
 * tenant; codes of integrator sessions with a redirect_uri are exchanged at the same token endpoint.
 * An issuer-only server (two host names) has no response types, which OID4VCI 1.0 section 12.2.4
 * allows for a server of the pre-authorized code grant alone.
 *
 * For the pre-authorized code grant it also takes DPoP proofs (RFC 9449 section 5.1, ES256) and a
 * wallet attestation as client authentication (`attest_jwt_client_auth`); with
 * WALLET_ATTESTATION_REQUIRED the attestation is the only method, and anonymous access ends.
 *
 * Both kinds of client push their authorization requests to one PAR endpoint (RFC 9126), and
 * `require_pushed_authorization_requests` is true wherever the issuer's server is (requiresPar): the
 * document describes one server, and what it says holds for every client it names.
 */
export function authorizationServerMetadata(
  at: ServedRoles,
  wallets: { attestationRequired?: boolean } = {},
) {
  const e = oidcEndpoints(at.base);
  const anonymous = !wallets.attestationRequired;
  return {
    issuer: at.base,
    token_endpoint: e.token,
    grant_types_supported: [
      ...(at.verifier || at.issuer ? ['authorization_code'] : []),
      // refresh_token: credential refresh, for tenants that allow it (HAIP 1.0 section 4.4).
      ...(at.issuer ? [PRE_AUTHORIZED_CODE_GRANT, 'refresh_token'] : []),
    ],
    token_endpoint_auth_methods_supported: [
      ...(at.verifier ? ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] : []),
      ...(at.issuer ? [...(anonymous ? ['none'] : []), 'attest_jwt_client_auth'] : []),
    ],
    ...(at.verifier ? { token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS } : {}),
    ...(at.issuer ? { 'pre-authorized_grant_anonymous_access_supported': anonymous } : {}),
    ...(at.issuer ? { dpop_signing_alg_values_supported: ['ES256'] } : {}),
    ...(at.issuer ? issuanceAuthorizationMetadata(e) : {}),
    ...(at.verifier ? openIdProviderMetadata(e) : {}),
    pushed_authorization_request_endpoint: e.pushedAuthorizationRequest,
    require_pushed_authorization_requests: requiresPar(at),
  };
}

/**
 * The issuer's authorization code flow (OID4VCI 1.0 section 5, HAIP 1.0): PAR (required, see
 * above), PKCE with S256 only, `iss` in the response.
 */
const issuanceAuthorizationMetadata = (e: ReturnType<typeof oidcEndpoints>) => ({
  authorization_endpoint: e.authorization,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
  authorization_response_iss_parameter_supported: true,
});

/** OpenID Connect Discovery 1.0 section 3: the provider's endpoints and what it signs and accepts. */
const openIdProviderMetadata = (e: ReturnType<typeof oidcEndpoints>) => ({
  authorization_endpoint: e.authorization,
  userinfo_endpoint: e.userinfo,
  jwks_uri: e.jwks,
  scopes_supported: ['openid'],
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['ES256'],
  code_challenge_methods_supported: ['S256'],
  authorization_response_iss_parameter_supported: true,
  request_parameter_supported: false,
  request_uri_parameter_supported: false,
  // RFC 9396: a relying party may ask the user to approve a transaction (server/approvals).
  authorization_details_types_supported: [APPROVAL_TRANSACTION_TYPE],
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
});
