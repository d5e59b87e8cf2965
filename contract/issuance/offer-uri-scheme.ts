import { z } from 'zod';

export const OFFER_URI_SCHEMES = ['openid-credential-offer', 'haip-vci'] as const;

/**
 * Scheme of the credential offer link a wallet opens: `openid-credential-offer` (OID4VCI 1.0
 * section 4.1) or `haip-vci` (HAIP 1.0 section 4.2, for wallets registered for HAIP offers). Only
 * the scheme differs: `?credential_offer_uri=` and the offer behind it are the same.
 */
export const OfferUriScheme = z.enum(OFFER_URI_SCHEMES);
export type OfferUriScheme = z.infer<typeof OfferUriScheme>;
