import { startBenchService } from './harness.js';
import { createBenchTenants, inParallel } from './scenario.js';

/**
 * How many SSE subscribers (browsers waiting for a login result) one node holds open at once, and
 * what they cost in memory.
 */
export async function sseBench(o: { quick: boolean; embedded: boolean }) {
  const service = await startBenchService({ embedded: o.embedded });
  try {
    const [tenant] = await createBenchTenants(service, 1, 'sse');
    if (!tenant) throw new Error('no tenant');
    const subscribers = Number(process.env.BENCH_SSE ?? (o.quick ? 500 : 2000));
    const sessions = await inParallel(subscribers, 8, async () => {
      const res = await tenant.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee' },
      });
      if (res.status !== 201) throw new Error('no session');
      return res.body.session_id;
    });
    const before = (await service.probe()).rssBytes;
    const controller = new AbortController();
    let open = 0;
    await Promise.all(
      sessions.map(async (id) => {
        const res = await fetch(`${service.baseUrl}/api/login/events?state=${id}`, {
          signal: controller.signal,
        });
        const first = await res.body?.getReader().read();
        if (first && !first.done) open++;
      }),
    );
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    const withSubscribers = (await service.probe()).rssBytes;
    controller.abort();
    return {
      subscribers_requested: subscribers,
      subscribers_open: open,
      server_rss_mb_before: mb(before),
      server_rss_mb_with_subscribers: mb(withSubscribers),
    };
  } finally {
    await service.stop();
  }
}
