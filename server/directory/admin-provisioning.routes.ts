import type { EntityManager } from '@mikro-orm/postgresql';
import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { adminActor } from '../http/admin-guard.js';
import { validationError } from '../http/problem.js';
import { getTenant } from '../tenants/tenant-service.js';
import { provisioningOf, saveProvisioning } from './provisioning-settings.js';
import type { TenantProvisioning } from './tenant-provisioning.entity.js';

const s = initServer();

/** The main configuration and those issued beside it exist, and the extra ones need a main one. */
async function checkConfigurations(em: EntityManager, main: string | null, additional: string[]) {
  const problems: { field: string; message: string }[] = [];
  if (main && !(await findConfiguration(em, main)))
    problems.push({ field: 'credential_configuration_id', message: 'unknown credential configuration' });
  if (additional.length && !main)
    problems.push({
      field: 'additional_configuration_ids',
      message: 'needs a credential_configuration_id to be issued beside',
    });
  for (const [i, extra] of additional.entries()) {
    const field = `additional_configuration_ids[${i}]`;
    if (extra === main || additional.indexOf(extra) !== i)
      problems.push({ field, message: 'names a configuration already issued' });
    else if (!(await findConfiguration(em, extra)))
      problems.push({ field, message: 'unknown credential configuration' });
  }
  return problems;
}

const view = (p: TenantProvisioning) => ({
  credential_configuration_id: p.configurationId ?? null,
  mappings: p.mappings,
  default_powers: p.defaultPowers,
  group_powers: p.groupPowers,
  renew_on_every_put: p.renewOnEveryPut,
  additional_configuration_ids: p.additionalConfigurationIds,
  approval_required: p.approvalRequired,
  approval_power: p.approvalPower ?? null,
});

/** Operators set how a tenant's SCIM users become credentials; the change is audited. */
export function adminProvisioningRoutes() {
  return {
    getProvisioning: s.route(adminContract.getProvisioning, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      return { status: 200, body: view(await provisioningOf(req.em, params.id)) };
    }),
    putProvisioning: s.route(adminContract.putProvisioning, async ({ params, body, req }) => {
      await getTenant(req.em, params.id);
      const id = body.credential_configuration_id;
      const problems = await checkConfigurations(req.em, id, body.additional_configuration_ids);
      if (problems.length) throw validationError(problems);
      const settings = {
        tenantId: params.id,
        configurationId: id,
        mappings: body.mappings,
        defaultPowers: body.default_powers,
        groupPowers: body.group_powers,
        renewOnEveryPut: body.renew_on_every_put,
        additionalConfigurationIds: body.additional_configuration_ids,
        approvalRequired: body.approval_required,
        approvalPower: body.approval_power,
      };
      await req.em.transactional(async (tx) => {
        await saveProvisioning(tx, settings);
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'tenant.provisioning.updated',
          subject: params.id,
          details: {
            configuration: id,
            additional_configurations: body.additional_configuration_ids,
            approval_required: body.approval_required,
          },
        });
      });
      return { status: 200, body: view(settings) };
    }),
  };
}
