import fs from 'node:fs';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { benchTenant, expectStatus, type Figure, measure, startBenchService } from './harness.js';

const rssMb = (pid: number | undefined) => {
  const status = pid ? fs.readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

/**
 * Verifier figures: presentations verified per second in both response modes (the wallet's request
 * object fetch and response, the verifier's full check incl. the status list, cached per its ttl),
 * and how many SSE subscribers one node holds.
 */
export async function verificationBench(): Promise<Record<string, unknown>> {
  const b = await startBenchService();
  try {
    const tenant = await b.admin.createTenant({ body: benchTenant('bench') });
    if (tenant.status !== 201) throw new Error('tenant not created');
    const integrator = createIntegratorClient({ baseUrl: b.baseUrl, token: tenant.body.integrator_token });
    const holder = await ThirdPartyHolder.create();
    const issued = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        holder_key: holder.holderJwk as never,
      },
    });
    if (issued.status !== 201 || !issued.body.credential) throw new Error('not issued');
    const credential = issued.body.credential;
    const sessions = async (count: number, mode: 'direct_post' | 'direct_post.jwt') =>
      Promise.all(
        Array.from({ length: count }, async () => {
          const res = await integrator.createAuthorizationRequest({
            body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode: mode },
          });
          if (res.status !== 201) throw new Error('no session');
          return res.body;
        }),
      );
    const figures: Figure[] = [];
    for (const mode of ['direct_post', 'direct_post.jwt'] as const) {
      const ready = await sessions(300, mode);
      figures.push(
        await measure(
          `verifier: presentation verified (${mode}: request object, response, full check)`,
          ready.length,
          8,
          async (i) =>
            expectStatus(
              await holder.present(ready[i]?.authorization_request_uri ?? '', [credential]),
              200,
              'present',
            ),
        ),
      );
    }
    figures.push(
      await measure('verifier: create session (POST /api/v1/authorization-request)', 300, 8, async () =>
        expectStatus(
          await integrator.createAuthorizationRequest({
            body: { credential_configuration_id: 'LEARCredentialEmployee' },
          }),
          201,
          'session',
        ),
      ),
    );
    // SSE: subscribers on pending sessions, all held open at once by one node.
    const subscribers = Number(process.env.BENCH_SSE ?? 2000);
    const pending = await sessions(subscribers, 'direct_post');
    const before = rssMb(b.pid);
    const controller = new AbortController();
    let open = 0;
    await Promise.all(
      pending.map(async (s) => {
        const res = await fetch(`${b.baseUrl}/api/login/events?state=${s.session_id}`, {
          signal: controller.signal,
        });
        const first = await res.body?.getReader().read();
        if (first && !first.done) open++;
      }),
    );
    const sse = {
      subscribers_requested: subscribers,
      subscribers_open: open,
      server_rss_mb_before: before,
      server_rss_mb_with_subscribers: rssMb(b.pid),
    };
    controller.abort();
    return { figures, sse };
  } finally {
    await b.stop();
  }
}
