import type { createAdminClient } from '../../clients/integrator/src/index.js';
import { until } from './until.js';

/**
 * Waits until the worker has sealed every audit event of the tenant appended so far (typically
 * within a second of the commit), and returns the last verification seen.
 */
export async function untilAuditSealed(admin: ReturnType<typeof createAdminClient>, tenantId: string) {
  const res = await until(
    () => admin.verifyAuditChain({ params: { id: tenantId } }),
    (r) => r.status === 200 && r.body.unsealed === 0,
  );
  if (res.status !== 200) throw new Error(`audit verification answered ${res.status}`);
  return res.body;
}
