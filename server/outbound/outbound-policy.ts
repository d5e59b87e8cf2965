import type net from 'node:net';
import { z } from 'zod';
import { parseAllowList } from './address-policy.js';

/** The settings of outbound requests; part of the service's configuration (server/config.ts). */
export const OutboundEnv = z.object({
  OUTBOUND_ALLOW_PRIVATE: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseAllowList(value);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    }),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  OUTBOUND_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
});

export interface OutboundPolicy {
  allowPrivate: net.BlockList;
  /**
   * This service's own addresses (PUBLIC_URL, ISSUER_URL, VERIFIER_URL): the operator configured
   * them, so fetching from them (our own status lists) is allowed wherever they point.
   */
  trustedOrigins: Set<string>;
  timeoutMs: number;
  maxBytes: number;
}

type PolicySettings = z.infer<typeof OutboundEnv> & {
  publicUrl: string;
  issuerUrl: string;
  verifierUrl: string;
};

const cache = new WeakMap<object, OutboundPolicy>();

/** The policy of a configuration (built once per configuration object). */
export function outboundPolicy(config: PolicySettings): OutboundPolicy {
  let policy = cache.get(config);
  if (!policy) {
    policy = {
      allowPrivate: parseAllowList(config.OUTBOUND_ALLOW_PRIVATE),
      trustedOrigins: new Set(
        [config.publicUrl, config.issuerUrl, config.verifierUrl].map((u) => new URL(u).origin),
      ),
      timeoutMs: config.OUTBOUND_TIMEOUT_MS,
      maxBytes: config.OUTBOUND_MAX_BYTES,
    };
    cache.set(config, policy);
  }
  return policy;
}
