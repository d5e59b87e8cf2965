import { z } from 'zod';

export const KeyPurpose = z.enum(['issuer', 'document-signer', 'status-list', 'verifier', 'oidc', 'audit']);

/** A JWK thumbprint (RFC 7638), base64url. */
export const Kid = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a key id (base64url)');

/** Where a key's private part lives: sealed in PostgreSQL (`local`), or inside a PKCS#11 token. */
export const KEY_STORE_KINDS = ['local', 'pkcs11'] as const;

/** How a token finds a key again: its CKA_LABEL and CKA_ID (hex). Not secret, not key material. */
export const TokenKey = z.object({ label: z.string(), id: z.string() });

export const SigningKeyInfo = z.object({
  kid: z.string(),
  purpose: KeyPurpose,
  alg: z.literal('ES256'),
  status: z.enum(['active', 'retiring', 'retired']),
  public_jwk: z.record(z.string()),
  created_at: z.string().datetime(),
  certificate_source: z
    .enum(['development', 'imported'])
    .nullable()
    .describe('Who issued the chain: the development CA of this deployment, or a CA an operator imported'),
  certificate_chain: z
    .array(z.string())
    .describe('The `x5c` of the key: base64 DER, leaf first, trust anchor left out'),
  key_store: z
    .enum(KEY_STORE_KINDS)
    .describe('Where the private key is: sealed in the database (local), or inside a PKCS#11 token'),
  token_key: TokenKey.nullable().describe(
    'How the token finds a PKCS#11 key: its CKA_LABEL and CKA_ID (hex); null for a local key',
  ),
  retired_at: z.string().datetime().nullable(),
  destroyed_at: z
    .string()
    .datetime()
    .nullable()
    .describe(
      'When the private key was destroyed (C_DestroyObject in a token); the public part stays listed',
    ),
});

export const SigningKeyList = z.object({ items: z.array(SigningKeyInfo) });

/** What happened to a key: each step of its life, in `signing_key_event` (append-only). */
export const KEY_EVENT_ACTIONS = [
  'key.generated',
  'key.rotated',
  'key.csr_created',
  'key.chain_imported',
  'key.retired',
  'key.destroyed',
] as const;

export const SigningKeyEvent = z.object({
  id: z.number().int(),
  kid: z.string(),
  purpose: KeyPurpose,
  action: z.enum(KEY_EVENT_ACTIONS),
  actor: z.string().describe('`admin` for the admin API, `service` for keys a node made at start'),
  details: z.record(z.unknown()),
  created_at: z.string().datetime(),
});

export const SigningKeyEventList = z.object({ items: z.array(SigningKeyEvent) });

export const SigningKeyEventQuery = z
  .object({ kid: Kid.optional().describe('Only the events of this key') })
  .strict();

const DnsName = z
  .string()
  .regex(
    /^(?=.{1,253}$)[A-Za-z0-9*]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/,
    'a DNS name',
  )
  // RFC 5280 section 4.2.1.6: an IP address is an iPAddress SAN, never a dNSName.
  .refine((v) => !/^\d+(\.\d+){3}$/.test(v), 'an IP address: give it in ip_addresses');

export const CertificateSigningRequestInput = z
  .object({
    subject: z
      .string()
      .min(3)
      .max(500)
      .optional()
      .describe('RFC 4514 name, e.g. "CN=issuer.example, O=ACME"; default: CN=<host>, O=<ISSUER_NAME>'),
    dns_names: z
      .array(DnsName)
      .max(20)
      .optional()
      .describe(
        'dNSName SANs; default: the host of ISSUER_URL (issuer, status-list) or VERIFIER_URL when it is a DNS name. Giving dns_names or ip_addresses replaces that default host',
      ),
    ip_addresses: z
      .array(z.string().ip())
      .max(20)
      .optional()
      .describe(
        'iPAddress SANs (IPv4 or IPv6); default: the host of ISSUER_URL (issuer, status-list) or VERIFIER_URL when it is an IP address',
      ),
    uris: z
      .array(z.string().url().max(2000))
      .max(20)
      .optional()
      .describe('URI SANs; default: ISSUER_URL (issuer, status-list) or VERIFIER_URL'),
  })
  .strict();

export const CertificateSigningRequestCreated = z.object({
  kid: z.string().describe('The active key the request is for; import the chain under this kid'),
  purpose: KeyPurpose,
  subject: z.string(),
  dns_names: z.array(z.string()),
  ip_addresses: z.array(z.string()),
  uris: z.array(z.string()),
  csr: z.string().describe('PKCS#10 (RFC 2986), PEM, signed with the key'),
});

export const CertificateChainImport = z
  .object({
    certificate_chain: z
      .string()
      .min(1)
      .max(65_536)
      .describe(
        'PEM certificates, leaf first; a trailing self-signed root is checked against and left out of x5c',
      ),
  })
  .strict();

export const DevelopmentCaInfo = z.object({
  subject: z.string(),
  not_after: z.string().datetime(),
  certificate: z.string().describe('Base64 DER of the root'),
  pem: z.string(),
});
