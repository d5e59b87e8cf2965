import { z } from 'zod';
import { CredentialPayload } from './employee-payload.js';
import { OfferLifetime } from './offer-lifetimes.js';
import { OfferUriScheme } from './offer-uri-scheme.js';

export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** OID4VCI 1.0 section 3.5: the holder signs in at the issuer's authorization endpoint. */
export const AUTHORIZATION_CODE_GRANT = 'authorization_code';
export const OFFER_GRANT_TYPES = [PRE_AUTHORIZED_CODE_GRANT, AUTHORIZATION_CODE_GRANT] as const;
export type OfferGrantType = (typeof OFFER_GRANT_TYPES)[number];

export const DELIVERY_MODES = ['ui', 'email', 'direct'] as const;
export type DeliveryModeName = (typeof DELIVERY_MODES)[number];

/** One delivery mode, or several joined by commas in any order, each at most once: `ui,email`. */
export type DeliveryList<M extends string = DeliveryModeName, All extends string = M> = M extends unknown
  ? M | `${M},${DeliveryList<Exclude<All, M>>}`
  : never;

const deliveryLists = (modes: readonly string[]): string[] =>
  modes.flatMap((m) => [m, ...deliveryLists(modes.filter((x) => x !== m)).map((rest) => `${m},${rest}`)]);

/** Every value of DeliveryList (15), so that the contract's type and OpenAPI enum are exact. */
export const DELIVERY_LISTS = deliveryLists(DELIVERY_MODES) as [DeliveryList, ...DeliveryList[]];

/** A public P-256 JWK: the key a directly delivered credential is bound to. */
export const HolderKey = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().min(43), y: z.string().min(43) })
  .passthrough()
  .refine((k) => !('d' in k), 'must be a public key (no "d")');

/**
 * `delivery`: one mode or a comma-separated set of `ui`, `email`, `direct`; absent means the tenant's
 * mode. `ui` returns the offer for the caller to show and mails only the tx_code; `email` mails the
 * offer link and, separately, the tx_code; `direct` returns the signed credential in the response.
 */
export const IssuanceRequest = z
  .object({
    credential_configuration_id: z.string().min(1).max(200),
    payload: CredentialPayload,
    delivery: z
      .enum(DELIVERY_LISTS, {
        errorMap: () => ({ message: 'one or more of ui, email, direct, comma-separated, each once' }),
      })
      .optional()
      .describe("One delivery mode or several, comma-separated; absent: the tenant's mode"),
    email: z.string().email().optional(),
    grant_type: z
      .enum(OFFER_GRANT_TYPES)
      .optional()
      .describe(
        'The grant the offer names. Absent: the pre-authorized code (with a tx_code mailed). authorization_code: the offer carries issuer_state and the holder signs in with a one-time code mailed to `email`',
      ),
    holder_key: HolderKey.optional(),
    expires_in: OfferLifetime.optional().describe(
      "Seconds the offer stays open (60 to 604800); absent: the tenant's offer_expires_in, else 24 hours",
    ),
    approval_required: z
      .boolean()
      .optional()
      .describe(
        "true: the wallet's credential request is deferred (OID4VCI 1.0 section 9) until the integrator approves or declines the issuance; absent: false. Not with direct delivery",
      ),
    offer_uri_scheme: OfferUriScheme.optional().describe(
      "Scheme of credential_offer_uri and of the offer page's link and QR code: openid-credential-offer or haip-vci (HAIP 1.0); absent: the tenant's offer_uri_scheme, else openid-credential-offer",
    ),
  })
  .strict();

export type IssuanceRequest = z.infer<typeof IssuanceRequest>;
