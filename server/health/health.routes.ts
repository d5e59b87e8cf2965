import { initServer } from '@ts-rest/express';
import { healthContract } from '../../contract/health-contract.js';
import type { AppContext } from '../app-context.js';

const s = initServer();
const CHECK_TIMEOUT_MS = 2_000;

const within = <T>(p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS)),
  ]);

/** Liveness says the process runs; readiness says its database and (when configured) Redis answer. */
export function healthRoutes(ctx: Pick<AppContext, 'orm' | 'redis'>) {
  return s.router(healthContract, {
    live: async () => ({ status: 200, body: { status: 'ok' } }),
    ready: async () => {
      const [database, redis] = await Promise.all([
        within(ctx.orm.em.fork().execute('select 1')).then(
          () => 'ok' as const,
          () => 'failed' as const,
        ),
        ctx.redis
          ? within(ctx.redis.ping()).then(
              () => 'ok' as const,
              () => 'failed' as const,
            )
          : Promise.resolve('not configured' as const),
      ]);
      const ok = database === 'ok' && redis !== 'failed';
      return {
        status: ok ? 200 : 503,
        body: { status: ok ? 'ok' : 'unavailable', checks: { database, redis } },
      };
    },
  });
}
