import { z } from 'zod';

// https, or http on loopback (a provider started next to the service in tests and development).
const providerIssuer = z
  .string()
  .url()
  .max(500)
  .refine((v) => {
    const u = new URL(v);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
    return (u.protocol === 'https:' || (u.protocol === 'http:' && loopback)) && !u.hash && !u.search;
  }, 'an https URL without query or fragment (http only on loopback)')
  .describe('Issuer identifier of the OpenID provider; its discovery document is read from it');

/**
 * The tenant's own OpenID Connect provider (Entra ID, Okta, ...) at which its holders sign in to
 * receive credentials by the authorization code flow, instead of a one-time code by e-mail.
 */
export const HolderSignInProviderInput = z
  .object({
    issuer: providerIssuer,
    client_id: z.string().min(1).max(300),
    client_secret: z
      .string()
      .min(1)
      .max(1000)
      .describe('Stored encrypted (KEY_ENCRYPTION_KEY) and never returned'),
    email_claim: z
      .string()
      .regex(/^[A-Za-z0-9_:.-]{1,100}$/)
      .default('email')
      .describe('ID token claim holding the holder’s e-mail address (e.g. preferred_username, upn)'),
  })
  .strict();

/** The provider as stored, without its secret. */
export const HolderSignInProvider = z.object({
  issuer: z.string(),
  client_id: z.string(),
  email_claim: z.string(),
  /** Where the provider must redirect back to: register it as the client's redirect URI. */
  redirect_uri: z.string(),
  updated_at: z.string().datetime(),
});
