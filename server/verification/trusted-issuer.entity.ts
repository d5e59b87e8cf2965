import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** An issuer whose credentials a tenant accepts; keys configured, or resolved from its jwt-vc-issuer metadata. */
export const TrustedIssuer = defineEntity({
  name: 'TrustedIssuer',
  tableName: 'trusted_issuer',
  properties: {
    tenantId: p.string().primary(),
    issuer: p.string().primary(),
    jwks: p.json<{ keys: Record<string, unknown>[] }>().nullable(),
    /**
     * Metadata issuers: why their keys could not be resolved the last time they were looked for (at
     * registration, then at each presentation that needed them); null once they could.
     */
    keysError: p.text().nullable(),
    keysCheckedAt: p.datetime().nullable(),
  },
});

export type TrustedIssuer = InferEntity<typeof TrustedIssuer>;
