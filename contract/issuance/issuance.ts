import { z } from 'zod';
import { DELIVERY_MODES } from './issuance-request.js';

export const CredentialStatusValue = z.enum(['valid', 'revoked', 'suspended']);

export const IssuedCredential = z.object({
  id: z.string().uuid(),
  status: CredentialStatusValue,
  status_list: z.object({ idx: z.number().int(), uri: z.string().url() }),
  issued_at: z.string().datetime(),
  expires_at: z.string().datetime(),
  wallet_notification: z.enum(['credential_accepted', 'credential_failure', 'credential_deleted']).nullable(),
});

export const IssuanceCreated = z.object({
  offer_id: z.string().describe('Identifier of the issuance and of its credential offer'),
  credential_offer_uri: z
    .string()
    .optional()
    .describe(
      'openid-credential-offer://?credential_offer_uri=… (or haip-vci://…, see offer_uri_scheme); present when the delivery is ui or email',
    ),
  expires_in: z.number().int().describe('Seconds until the offer expires'),
  delivery: z.array(z.enum(DELIVERY_MODES)),
  credential: z.string().optional().describe('The signed SD-JWT VC, for direct delivery'),
  credential_id: z.string().uuid().optional().describe('For direct delivery: the credential issued'),
});

/** The states an issuance is kept in; `expired` is not kept but read from its expiry. */
export const ISSUANCE_STATUSES = [
  'offered',
  'redeemed',
  'awaiting_approval',
  'approved',
  'declined',
  'issued',
  'locked',
  'withdrawn',
] as const;

export const Issuance = z.object({
  id: z.string(),
  credential_configuration_id: z.string(),
  status: z
    .enum([...ISSUANCE_STATUSES, 'expired'])
    .describe(
      'expired: past its expiry, undecided or unredeemed; awaiting_approval: the wallet asked and waits for approve or decline; approved: the wallet collects the credentials at the deferred credential endpoint',
    ),
  approval_required: z.boolean(),
  delivery: z.array(z.enum(DELIVERY_MODES)),
  email: z.string().nullable().describe('The address the offer or its tx_code was mailed to, if any'),
  credential_offer_uri: z
    .string()
    .optional()
    .describe('While the offer can still be redeemed (offered): the link a wallet opens, as at creation'),
  offer_page_url: z
    .string()
    .url()
    .optional()
    .describe('While the offer can still be redeemed: its web page with the QR code'),
  created_at: z.string().datetime(),
  expires_at: z.string().datetime(),
  credentials: z.array(IssuedCredential),
});

export const CredentialStatusChange = z.object({ id: z.string().uuid(), status: CredentialStatusValue });
