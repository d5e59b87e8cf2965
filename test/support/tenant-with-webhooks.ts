import { createClient } from '../../clients/integrator/src/index.js';
import { startTenantFixture, type TenantFixture } from './tenant-fixture.js';
import { startWebhookReceiver } from './webhook-receiver.js';

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * A tenant fixture whose tenant sends its webhooks to a receiver of the test's own, subscribed
 * through the admin API as an operator does: the tests that check what the integrator is told.
 */
export async function tenantWithWebhooks(): Promise<{
  f: TenantFixture;
  receiver: WebhookReceiver;
  stop(): Promise<void>;
}> {
  const receiver = await startWebhookReceiver();
  const f = await startTenantFixture();
  const hooks = createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).webhooks;
  const created = await hooks.createWebhook({ params: { id: f.tenant.id }, body: { url: receiver.url } });
  if (created.status !== 201) throw new Error(`webhook: ${created.status}`);
  return {
    f,
    receiver,
    stop: async () => {
      await f.stop();
      await receiver.close();
    },
  };
}
