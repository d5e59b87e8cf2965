import { z } from 'zod';
import { DcApiRequest, DigitalCredentialRequest } from '../oid4vp/dc-api-request.js';
import { ResponseMode } from '../verification/authorization-request.js';

/** The built-in transaction data type of an approval (OpenID4VP 1.0 §5.1 `transaction_data`). */
export const APPROVAL_TRANSACTION_TYPE = 'urn:credservice:approval:1';

export const ApprovalAmount = z
  .object({
    value: z
      .string()
      .regex(/^\d{1,15}(\.\d{1,6})?$/, 'a decimal number as a string, e.g. "12400.00"')
      .describe('The amount as a decimal string, never a float'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code, e.g. EUR'),
  })
  .strict();

/**
 * What the employee is asked to approve. `type` names the transaction data type; the built-in one
 * has `subject`, `description` and `amount`; others are what their type's schema allows.
 */
export const ApprovalTransaction = z
  .object({
    type: z.string().min(1).max(200),
    subject: z.string().min(1).max(200).describe('What is approved, e.g. a purchase order number'),
    description: z.string().max(2000).optional(),
    amount: ApprovalAmount.optional(),
  })
  .passthrough();

/** The power (function and action, optionally domain) the approver's credential must hold. */
export const RequiredPower = z
  .object({
    function: z.string().min(1).max(200),
    action: z.string().min(1).max(200),
    domain: z.string().min(1).max(200).optional(),
  })
  .strict();

export const ApprovalCreate = z
  .object({
    credential_configuration_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('The credential the approver presents; default LEARCredentialEmployee'),
    transaction: ApprovalTransaction,
    power: RequiredPower,
    redirect_uri: z.string().url().optional(),
    response_mode: ResponseMode.optional().describe('Default direct_post.jwt'),
    expected_origins: z.array(z.string().url()).min(1).max(10).optional().describe('dc_api modes'),
  })
  .strict();

/**
 * An approval asked for an issuance awaiting approval (deferred issuance): the transaction is the
 * issuance itself (built-in type, subject `Issue <configuration> to <e-mail>`), so only who may
 * approve it and how the approver's wallet answers are chosen here.
 */
export const IssuanceApprovalCreate = z
  .object({
    power: RequiredPower.optional().describe(
      "The power the approver's credential must hold; default the tenant's provisioning approval_power, else Onboarding / Approve",
    ),
    credential_configuration_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('The credential the approver presents; default LEARCredentialEmployee'),
    response_mode: ResponseMode.optional().describe('Default direct_post.jwt'),
    expected_origins: z.array(z.string().url()).min(1).max(10).optional().describe('dc_api modes'),
  })
  .strict();

export const ApprovalCreated = z.object({
  approval_id: z.string(),
  session_id: z.string().describe('The presentation session underneath: poll it, subscribe to it'),
  authorization_request_uri: z.string(),
  cross_device_uri: z.string(),
  qr_code: z.string(),
  expires_in: z.number().int(),
  session_binding: z.string().optional().describe('With a redirect_uri, as for presentation sessions'),
  dc_api_request: DcApiRequest.optional().describe('dc_api modes: as for presentation sessions'),
  dc_api_requests: z.array(DigitalCredentialRequest).optional(),
  dc_api_response_uri: z.string().optional(),
});

export const ApprovalStatus = z.object({
  approval_id: z.string(),
  session_id: z.string(),
  status: z.enum(['pending', 'approved', 'failed']),
  reason: z
    .string()
    .optional()
    .describe(
      'Once failed: mandate_insufficient, transaction_data_missing, transaction_data_mismatch, expired, or a presentation failure reason',
    ),
  reason_description: z.string().optional(),
  transaction: ApprovalTransaction,
  power: RequiredPower,
  approver: z.record(z.unknown()).optional().describe('Once approved: the claims the approver disclosed'),
  receipt: z
    .string()
    .optional()
    .describe(
      'Once approved: the signed receipt, a JWS (typ approval-receipt+jwt, ES256, x5c) anyone can check offline',
    ),
});

/**
 * RFC 9396 authorization details of an approval asked for through the OpenID provider: the
 * transaction (its `type` is the transaction data type) and the power the approver must hold.
 */
export const ApprovalAuthorizationDetail = ApprovalTransaction.extend({ power: RequiredPower });
