import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { z } from 'zod';
import type {
  AttributeMapping as AttributeMappingSchema,
  Power as PowerSchema,
} from '../../contract/admin/provisioning.js';
import type { RequiredPower } from '../../contract/approvals/approval.js';

export type AttributeMapping = z.infer<typeof AttributeMappingSchema>;
export type Power = z.infer<typeof PowerSchema>;

/**
 * How a tenant's SCIM users become credentials: which configuration, which attribute goes where,
 * which powers everyone gets, and which powers membership of a group adds.
 */
export const TenantProvisioning = defineEntity({
  name: 'TenantProvisioning',
  tableName: 'tenant_provisioning',
  properties: {
    tenantId: p.string().primary(),
    configurationId: p.string().nullable(),
    mappings: p.json<AttributeMapping[]>(),
    defaultPowers: p.json<Power[]>(),
    /** Group displayName (case-insensitive) to the powers its members get. */
    groupPowers: p.json<Record<string, Power[]>>(),
    renewOnEveryPut: p.boolean(),
    /** Configurations issued beside the main one from the same rules, renewed and revoked with it. */
    additionalConfigurationIds: p.json<string[]>(),
    /** Issuances SCIM creates wait for approval (deferred issuance), as approval_required does. */
    approvalRequired: p.boolean(),
    /** The power approving an issuance by presentation requires, unless the request names one. */
    approvalPower: p.json<z.infer<typeof RequiredPower>>().nullable(),
  },
});

export type TenantProvisioning = InferEntity<typeof TenantProvisioning>;

export const DEFAULT_MAPPINGS: AttributeMapping[] = [
  { target: 'mandatee.firstName', source: 'name.givenName', required: true },
  { target: 'mandatee.lastName', source: 'name.familyName', required: true },
  { target: 'mandatee.email', source: 'emails[primary eq true].value', required: true },
];

/** Everyone provisioned may at least identify themselves as an employee; groups add more. */
export const DEFAULT_POWERS: Power[] = [{ function: 'Employee', action: ['Identify'] }];

/** What a tenant without its own settings gets: the employee credential with the default mappings. */
export const defaultProvisioning = (tenantId: string): TenantProvisioning => ({
  tenantId,
  configurationId: 'LEARCredentialEmployee',
  mappings: DEFAULT_MAPPINGS,
  defaultPowers: DEFAULT_POWERS,
  groupPowers: {},
  renewOnEveryPut: false,
  additionalConfigurationIds: [],
  approvalRequired: false,
  approvalPower: null,
});
