import { createHash } from 'node:crypto';
import { canonicalJson } from '../audit/canonical-json.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { issuingFormat } from '../formats/credential-formats.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { readAttribute } from './scim-attribute-value.js';
import type { Power, TenantProvisioning } from './tenant-provisioning.entity.js';

export type PayloadResult = { payload: Record<string, unknown>; hash: string } | { missing: string[] };

/**
 * The credential payload of a SCIM user under the tenant's provisioning settings: the mandator from
 * the tenant, mapped attributes, and powers (the tenant's defaults plus those of the user's groups,
 * merged per function). Required mappings whose SCIM attribute is absent are reported, not guessed.
 */
export function buildCredentialPayload(
  provisioning: TenantProvisioning,
  tenant: Tenant,
  configuration: CredentialConfiguration,
  user: Record<string, unknown>,
  groupNames: string[],
): PayloadResult {
  const format = issuingFormat(configuration);
  const payload: Record<string, unknown> = {};
  const properties = format.employeeSchema(configuration).properties as Record<string, unknown> | undefined;
  const declares = (name: string) => Boolean(properties?.[name]);
  if (declares('mandator') && tenant.mandator) payload.mandator = { ...tenant.mandator };
  const missing: string[] = [];
  for (const m of provisioning.mappings) {
    const value = readAttribute(user, m.source);
    if (value === undefined) {
      if (m.required) missing.push(m.source);
      continue;
    }
    setPath(payload, m.target, value);
  }
  if (missing.length) return { missing };
  if (declares('power')) payload.power = mergePowers(provisioning, groupNames);
  const formatted = format.payloadFromEmployee(configuration, payload);
  return { payload: formatted, hash: createHash('sha256').update(canonicalJson(formatted)).digest('hex') };
}

/** The powers a credential of `configuration` gives a member of these groups (none if it has no powers). */
export function grantedPowers(
  provisioning: TenantProvisioning,
  configuration: CredentialConfiguration,
  groupNames: string[],
): Power[] {
  const properties = issuingFormat(configuration).employeeSchema(configuration).properties as
    | Record<string, unknown>
    | undefined;
  return properties?.power ? mergePowers(provisioning, groupNames) : [];
}

function mergePowers(provisioning: TenantProvisioning, groupNames: string[]): Power[] {
  const byGroup = new Map(Object.entries(provisioning.groupPowers).map(([k, v]) => [k.toLowerCase(), v]));
  const all = [
    ...provisioning.defaultPowers,
    ...groupNames.flatMap((g) => byGroup.get(g.toLowerCase()) ?? []),
  ];
  const merged = new Map<string, Set<string>>();
  for (const p of all) {
    const actions = merged.get(p.function) ?? new Set<string>();
    for (const a of p.action) actions.add(a);
    merged.set(p.function, actions);
  }
  return [...merged]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([fn, actions]) => ({ function: fn, action: [...actions].sort() }));
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1) as string] = value;
}
