import { z } from 'zod';

/**
 * How a tenant's pages (the credential offer page, the OpenID Connect login page) look: its logo and
 * its colour. Both are checked here so that nothing but an https address and a hex colour ever
 * reaches a page.
 */
export const TenantBranding = z
  .object({
    logo_uri: z
      .string()
      .max(2000)
      .url()
      .startsWith('https://', 'must be an https URL')
      // A host name (or IPv4 address) and port only: the origin is added to the page's CSP img-src.
      .refine((v) => URL.canParse(v) && /^[a-z0-9.-]+$/.test(new URL(v).hostname), {
        message: 'the host must be a domain name',
      })
      .optional()
      .describe('The logo shown at the top of the pages (https; the page allows images from its origin)'),
    primary_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
      .optional()
      .describe(
        'Colour of the header and buttons, as #rrggbb; text on it is black or white, whichever reads',
      ),
  })
  .strict()
  .describe("The tenant's look on its offer and login pages");

export type TenantBranding = z.infer<typeof TenantBranding>;

// `Display Name <local@domain>` or a bare address; no line breaks or quotes, so that the value can
// only ever be one From header.
const NAMED_ADDRESS = /^([^<>"\\\p{Cc}]{1,100}) <([^<>\s]+)>$/u;
const email = z.string().email();

export const MailSender = z
  .string()
  .max(320)
  .refine((v) => email.safeParse(NAMED_ADDRESS.exec(v)?.[2] ?? v).success, {
    message: 'an e-mail address, or a name and address as "Name <address@example.com>"',
  })
  .describe('Sender of the tenant\'s mail, e.g. "ACME Corp <credentials@acme.example>"; null: MAIL_FROM');
