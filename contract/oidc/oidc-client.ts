import { z } from 'zod';

export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
] as const;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A redirect URI a relying party may register: https anywhere, plain http only on the loopback
 * interface (development), never with a fragment (RFC 6749 section 3.1.2).
 */
export function isRegistrableRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#')) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** Claims of the ID token this service sets itself; a mapping may not overwrite them. */
export const RESERVED_CLAIMS = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'nonce',
  'auth_time',
  'azp',
  'at_hash',
  'c_hash',
  'acr',
  'amr',
  'sid',
]);

const ClaimName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, 'a claim name: letters, digits, _ . : -')
  .refine((name) => !RESERVED_CLAIMS.has(name), 'is set by the service itself');

/** DCQL claims path (OID4VP 1.0 section 7): object keys, array indices, null for every element. */
export const ClaimPath = z
  .array(z.union([z.string().min(1).max(200), z.number().int().nonnegative(), z.null()]))
  .min(1)
  .max(16);

const PublicJwk = z
  .object({ kty: z.string() })
  .passthrough()
  .refine((k) => !['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((m) => m in k), 'must be a public key');

export const OidcClientCreateRequest = z
  .object({
    client_name: z.string().min(1).max(200).optional().describe('Shown on the login page'),
    redirect_uris: z
      .array(
        z
          .string()
          .max(2000)
          .refine(isRegistrableRedirectUri, 'https, or http on 127.0.0.1/localhost; no fragment'),
      )
      .min(1)
      .max(10)
      .describe('Exact redirect URIs; /oauth2/authorize compares them character for character'),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).default('client_secret_basic'),
    jwks: z
      .object({ keys: z.array(PublicJwk).min(1).max(10) })
      .optional()
      .describe('private_key_jwt only: the public keys client assertions are signed with'),
    credential_configuration_id: z.string().min(1).max(200).describe('The credential the login asks for'),
    claims_mapping: z
      .record(ClaimName, ClaimPath)
      .default({})
      .describe('ID token claim name to the credential claim path it is read from'),
  })
  .strict()
  .refine((r) => (r.token_endpoint_auth_method === 'private_key_jwt') === Boolean(r.jwks), {
    message: 'jwks is required with private_key_jwt, and only then',
    path: ['jwks'],
  });

export const OidcClientInfo = z.object({
  client_id: z.string(),
  tenant_id: z.string(),
  client_name: z.string().nullable(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  jwks: z.object({ keys: z.array(z.record(z.unknown())) }).optional(),
  credential_configuration_id: z.string(),
  claims_mapping: z.record(ClaimPath),
  created_at: z.string().datetime(),
});

export const OidcClientCreated = OidcClientInfo.extend({
  client_secret: z
    .string()
    .optional()
    .describe('client_secret_basic and client_secret_post: shown once; only its hash is kept'),
});

export const OidcClientList = z.object({ items: z.array(OidcClientInfo) });

export type OidcClientCreateRequest = z.infer<typeof OidcClientCreateRequest>;
