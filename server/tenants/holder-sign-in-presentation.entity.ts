import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ClaimMatch } from '../../contract/admin/holder-sign-in-presentation.js';

/**
 * A tenant's holders sign in at issuance by presenting a credential to this service's verifier:
 * the DCQL credential query it asks for and the rule its claims must meet (holder-sign-in-presentation.ts).
 */
export const HolderSignInPresentation = defineEntity({
  name: 'HolderSignInPresentation',
  tableName: 'holder_sign_in_presentation',
  properties: {
    tenantId: p.string().primary(),
    /** The DCQL credential query as the operator gave it (the matched claims are added when asked). */
    credentialQuery: p.json<Record<string, unknown>>(),
    match: p.json<ClaimMatch[]>(),
    updatedAt: p.datetime(),
  },
});

export type HolderSignInPresentation = InferEntity<typeof HolderSignInPresentation>;
