import { z } from 'zod';
import { AuthorizationServerMetadata } from '../oid4vci/credential-issuer-metadata.js';

/**
 * OpenID Connect Discovery 1.0 section 3 (and RFC 8414): the authorization server at this host. The
 * OpenID provider fields are there where the host serves the verifier, PAR where it serves the issuer.
 */
export const OpenIdConfiguration = AuthorizationServerMetadata.extend({
  pushed_authorization_request_endpoint: z.string().url().optional(),
  require_pushed_authorization_requests: z.boolean().optional(),
  userinfo_endpoint: z.string().url().optional(),
  scopes_supported: z.array(z.string()).optional(),
  authorization_details_types_supported: z
    .array(z.string())
    .optional()
    .describe('RFC 9396: the approval type a relying party may ask for'),
  response_modes_supported: z.array(z.string()).optional(),
  subject_types_supported: z.array(z.string()).optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  token_endpoint_auth_signing_alg_values_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  request_parameter_supported: z.boolean().optional(),
  request_uri_parameter_supported: z.boolean().optional(),
  claims_parameter_supported: z.boolean().optional(),
  claims_supported: z.array(z.string()).optional(),
});
