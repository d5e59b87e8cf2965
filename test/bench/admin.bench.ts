import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { expectStatus, type Figure, measure, startBenchService } from './harness.js';

/** Admin and token-authentication figures. */
export async function adminBench(): Promise<Figure[]> {
  const b = await startBenchService();
  try {
    const figures = [
      await measure('admin: create tenant (2 tokens, 3 audit events, one transaction)', 300, 8, async (i) =>
        expectStatus(
          await b.admin.createTenant({ body: { id: `bench-${i}`, name: 'Bench', delivery: 'email' } }),
          201,
          'tenant',
        ),
      ),
    ];
    const created = await b.admin.createTenant({
      body: { id: 'bench-auth', name: 'Bench', delivery: 'email' },
    });
    if (created.status !== 201) throw new Error('tenant not created');
    const integrator = createIntegratorClient({ baseUrl: b.baseUrl, token: created.body.integrator_token });
    figures.push(
      await measure('integrator: authenticated GET /api/v1/me', 3000, 16, async () =>
        expectStatus(await integrator.whoAmI(), 200, 'whoami'),
      ),
    );
    return figures;
  } finally {
    await b.stop();
  }
}
