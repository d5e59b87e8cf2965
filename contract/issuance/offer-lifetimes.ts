import { z } from 'zod';

/**
 * How long an offer stays open (its link, its pre-authorized code and its mailed tx_code), in
 * seconds: from a minute, for a QR code shown to someone in front of the screen, to a week, for an
 * onboarding e-mail read after a weekend. The service default is OFFER_TTL_SECONDS (24 hours).
 */
export const OfferLifetime = z
  .number()
  .int()
  .min(60)
  .max(7 * 86_400);

/**
 * How long the pre-authorized code a wallet fetched stays good, in seconds (OID4VCI 1.0 section
 * 4.1.1: short-lived). Each fetch of the open offer mints a fresh code, never outliving the offer.
 */
export const PreAuthorizedCodeLifetime = z.number().int().min(60).max(3_600);

/**
 * How long a wallet may refresh its credential with refresh tokens after the token grant, in
 * seconds: an hour to a year. HAIP 1.0 section 4.4 advises against refreshing more than a year
 * after the original issuance; rotating a refresh token does not extend this.
 */
export const RefreshTokenLifetime = z
  .number()
  .int()
  .min(3_600)
  .max(365 * 86_400);

/** The default of PreAuthorizedCodeLifetime: ten minutes, time to read the tx_code mail and type it. */
export const DEFAULT_PRE_AUTHORIZED_CODE_SECONDS = 600;
