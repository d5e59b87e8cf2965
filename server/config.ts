import path from 'node:path';
import { z } from 'zod';
import { ConsoleEnv } from './console/console-env.js';
import { isLoopbackUrl, TrustProxySetting } from './http/trust-proxy-setting.js';
import { KeyStoreEnv, keyStoreSettingErrors } from './keys/pkcs11/key-store-settings.js';
import { MetricsEnv } from './metrics/metrics-settings.js';
import { ClientAttestationEnv } from './oid4vci/client-attestation/client-attestation-settings.js';
import { DpopEnv } from './oid4vci/dpop/dpop-settings.js';
import { CredentialEncryptionEnv } from './oid4vci/encryption/credential-encryption-settings.js';
import { OutboundEnv } from './outbound/outbound-policy.js';
import { RateLimitEnv } from './rate-limit/rate-limit-settings.js';
import { TrustListEnv } from './trust/trust-list-settings.js';

/**
 * Every setting the service reads, in one place. Each one is documented in README.md (Configuration);
 * anything unset falls back to an embedded default that the start-up log names.
 */
const EnvSchema = z.object({
  ...OutboundEnv.shape,
  ...MetricsEnv.shape,
  ...RateLimitEnv.shape,
  ...DpopEnv.shape,
  ...CredentialEncryptionEnv.shape,
  ...ClientAttestationEnv.shape,
  ...TrustListEnv.shape,
  ...ConsoleEnv.shape,
  ...KeyStoreEnv.shape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  PUBLIC_URL: z.string().url().optional(),
  ISSUER_URL: z.string().url().optional(),
  VERIFIER_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  REDIS_URL: z.string().optional(),
  QUEUE_PREFIX: z.string().default('credservice'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Credential Service <no-reply@localhost>'),
  ADMIN_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters (e.g. the output of `openssl rand -hex 32`)')
    .optional(),
  KEY_ENCRYPTION_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1_000),
  JOB_ATTEMPTS: z.coerce.number().int().positive().default(5),
  JOB_BACKOFF_MS: z.coerce.number().int().positive().default(1_000),
  // An offer's link and tx_code: a day by default, at most a week (tenants and requests may choose).
  OFFER_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(24 * 3600),
  BATCH_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  ISSUER_NAME: z.string().default('Credential Service'),
  VERIFIER_SESSION_SECONDS: z.coerce.number().int().min(30).default(300),
  VERIFIER_SESSION_MAX_SECONDS: z.coerce.number().int().min(30).default(1800),
  AUDIT_EXPORT_DIR: z.string().optional(),
  AUDIT_EXPORT_URL: z.string().url().startsWith('https://').optional(),
  AUDIT_EXPORT_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  AUDIT_SEAL_INTERVAL_MS: z.coerce.number().int().min(0).default(250),
  TRUST_PROXY: TrustProxySetting.default('false'),
  ALLOW_INSECURE_HTTP: z.enum(['true', 'false']).default('false'),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(30_000),
  MAX_CONNECTIONS: z.coerce.number().int().positive().default(1_000),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Env {
  /** Base address of the whole service, no trailing slash. */
  publicUrl: string;
  issuerUrl: string;
  verifierUrl: string;
  dataDir: string;
  runsApi: boolean;
  runsWorkers: boolean;
  /** Plain HTTP is allowed everywhere: PUBLIC_URL is on the loopback interface, or ALLOW_INSECURE_HTTP. */
  insecureHttpAllowed: boolean;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${fields}`);
  }
  const e = parsed.data;
  const keyStoreErrors = keyStoreSettingErrors(e);
  if (keyStoreErrors.length) throw new Error(`invalid configuration: ${keyStoreErrors.join('; ')}`);
  const publicUrl = trimSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    ...e,
    publicUrl,
    issuerUrl: trimSlash(e.ISSUER_URL ?? publicUrl),
    verifierUrl: trimSlash(e.VERIFIER_URL ?? publicUrl),
    dataDir: path.resolve(e.DATA_DIR),
    runsApi: e.ROLE !== 'worker',
    runsWorkers: e.ROLE !== 'api',
    insecureHttpAllowed: e.ALLOW_INSECURE_HTTP === 'true' || isLoopbackUrl(publicUrl),
  };
}
