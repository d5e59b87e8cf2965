import { z } from 'zod';
import { RequiredPower } from '../approvals/approval.js';

/** A credential payload field filled from a SCIM attribute path. */
export const AttributeMapping = z.object({
  target: z.string().regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'dotted payload path'),
  source: z
    .string()
    .min(1)
    .max(300)
    .describe('SCIM attribute path, e.g. name.givenName or emails[type eq "work"].value'),
  required: z.boolean().default(false).describe('A user lacking a required source cannot be provisioned'),
});

export const Power = z.object({
  function: z.string().min(1).max(200),
  action: z.array(z.string().min(1).max(200)).min(1),
});

/** How a tenant's SCIM users become credentials. */
export const ProvisioningSettings = z
  .object({
    credential_configuration_id: z
      .string()
      .nullable()
      .describe('The configuration users get; null: users are stored without credentials'),
    mappings: z
      .array(AttributeMapping)
      .describe(
        'Payload fields filled from SCIM attributes; a required one missing refuses the user (400 invalidValue)',
      ),
    default_powers: z.array(Power).describe('Powers every provisioned user gets'),
    group_powers: z
      .record(z.array(Power))
      .describe('Group displayName (case-insensitive) to the powers its members get'),
    renew_on_every_put: z
      .boolean()
      .default(false)
      .describe('Renew the credential on every PUT, even when nothing it carries changed'),
    additional_configuration_ids: z
      .array(z.string().min(1).max(100))
      .max(4)
      .default([])
      .describe(
        'Configurations issued beside the main one from the same mappings and powers (e.g. EmployeeMdoc beside LEARCredentialEmployee), each its own offer, renewed and revoked with the main credential',
      ),
    approval_required: z
      .boolean()
      .default(false)
      .describe(
        'Hold each issuance SCIM provisioning creates (a new user, a renewal) for approval, as approval_required does on POST /api/v1/issuances: the wallet waits (deferred issuance) until it is approved or declined',
      ),
    approval_power: RequiredPower.nullable()
      .default(null)
      .describe(
        'The power an approver must hold to approve an issuance of this tenant by presentation (POST /api/v1/issuances/{id}/approval) when the request names none; null: Onboarding / Approve',
      ),
  })
  .strict();
