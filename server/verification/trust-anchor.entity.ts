import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An X.509 root a tenant's verifier trusts: a credential (or Status List Token) whose `x5c` chain
 * leads to it, with a leaf naming the credential's `iss`, is accepted by that chain.
 */
export const TrustAnchor = defineEntity({
  name: 'TrustAnchor',
  tableName: 'trust_anchor',
  properties: {
    tenantId: p.string().primary(),
    /** SHA-256 of the DER, lowercase hex: the anchor's name in the API and in session results. */
    sha256: p.string().primary(),
    subject: p.text(),
    /** Base64url key identifier that certificates it issued carry as authorityKeyIdentifier (DCQL `aki`). */
    keyIdentifier: p.string(),
    /** Standard base64 DER. */
    certificate: p.text(),
    notBefore: p.datetime(),
    notAfter: p.datetime(),
    createdAt: p.datetime(),
  },
});

export type TrustAnchor = InferEntity<typeof TrustAnchor>;
