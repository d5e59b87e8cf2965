import { z } from 'zod';

/** A power of the employee credential (LEARCredentialEmployee `power[]`): a function and one action. */
export const ConsolePower = z
  .object({
    function: z.string().trim().min(1).max(100),
    action: z.string().trim().min(1).max(100),
  })
  .strict();

/**
 * Who may use the tenant's console: an employee whose credential (issued by this service for this
 * tenant, valid) carries the `administrator` power signs in as an administrator, one with the
 * `auditor` power as a read-only auditor. Without settings the tenant has no console sign-in.
 */
export const ConsoleSettingsInput = z
  .object({
    administrator: ConsolePower.describe('The power that makes an administrator, e.g. Administration/Manage'),
    auditor: ConsolePower.nullable()
      .default(null)
      .describe('The power that makes a read-only auditor; null: no auditors'),
  })
  .strict();

export const ConsoleSettings = ConsoleSettingsInput.extend({
  sign_in_url: z.string().url().describe('Where the tenant’s administrators sign in'),
  oidc_client_id: z
    .string()
    .nullable()
    .describe('The console’s relying party at the OpenID provider, made at the first sign-in'),
});

export const ConsoleLinkCreated = z.object({
  url: z.string().url().describe('Opens the console as the operator; good once, until expires_at'),
  expires_at: z.string().datetime(),
});

export type ConsolePower = z.infer<typeof ConsolePower>;
export type ConsoleSettingsInput = z.infer<typeof ConsoleSettingsInput>;
