import { createAdminClient } from '../integrator/src/index.js';

export const PROVISIONING_USAGE = `  provisioning get <tenant id>
  provisioning set <tenant id> [--approval-required true|false] [--approval-power <function>:<action>[:<domain>]|none]`;

/** The flags the provisioning commands read (declared with the others in main.ts). */
export interface ProvisioningFlags {
  'approval-required'?: string | undefined;
  'approval-power'?: string | undefined;
}

function approvalRequired(flag: string | undefined, fail: (m: string) => never) {
  if (flag === undefined) return undefined;
  if (flag !== 'true' && flag !== 'false') fail('--approval-required takes true or false');
  return flag === 'true';
}

/** `Onboarding:Approve` or `Onboarding:Approve:ACME` as a required power; `none` clears it (the default applies). */
function approvalPower(flag: string | undefined, fail: (m: string) => never) {
  if (flag === undefined) return undefined;
  if (flag === 'none') return null;
  const [fn, action, domain, ...rest] = flag.split(':');
  if (!fn || !action || rest.length) fail('--approval-power takes <function>:<action>[:<domain>] or none');
  return { function: fn, action, ...(domain ? { domain } : {}) };
}

/**
 * `provisioning …`: a tenant's SCIM provisioning settings. The API replaces them whole, so `set`
 * reads the current settings and sends them back with only the flags given changed.
 */
export function provisioningCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  [tenant]: (string | undefined)[],
  flags: ProvisioningFlags,
  need: (v: string | undefined, what: string) => string,
  fail: (m: string) => never,
): Promise<{ status: number; body: unknown }> | undefined {
  const admin = createAdminClient(o);
  const params = () => ({ id: need(tenant, 'tenant id') });
  switch (command) {
    case 'get':
      return admin.getProvisioning({ params: params() });
    case 'set':
      return (async () => {
        const required = approvalRequired(flags['approval-required'], fail);
        const power = approvalPower(flags['approval-power'], fail);
        const current = await admin.getProvisioning({ params: params() });
        if (current.status !== 200) return current;
        return admin.putProvisioning({
          params: params(),
          body: {
            ...current.body,
            ...(required === undefined ? {} : { approval_required: required }),
            ...(power === undefined ? {} : { approval_power: power }),
          },
        });
      })();
    default:
      return undefined;
  }
}
