import { z } from 'zod';

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
  })
  .strict();
