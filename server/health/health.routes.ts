import { initServer } from '@ts-rest/express';
import { healthContract } from '../../contract/health-contract.js';
import type { AppContext } from '../app-context.js';

const s = initServer();
const CHECK_TIMEOUT_MS = 2_000;

/** What an api node does without Redis: it keeps serving, these wait or fall back. */
const WITHOUT_REDIS = [
  'background jobs (mail, status list publication, audit export) wait in the outbox until Redis is back',
  'sign-ins at /oauth2/authorize are refused with temporarily_unavailable',
  'session status events do not cross nodes',
  'rate limits are counted per node',
];

/** What does not work while the key store (a PKCS#11 token) is gone; it comes back by itself. */
const WITHOUT_KEY_STORE = [
  'requests that need a signature (credentials, tokens with signed nonces, ID tokens, request objects, status lists) are refused with 503 until the key store answers again',
];

type Check = 'ok' | 'failed' | 'not configured';

const within = <T>(p: Promise<T>): Promise<Check> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([p, timeout])
    .then(
      (): Check => 'ok',
      (): Check => 'failed',
    )
    .finally(() => clearTimeout(timer));
};

/**
 * Liveness says the process runs. Readiness tells a load balancer whether to send this node requests:
 * yes while its database answers, since every request needs it and nothing else. Redis down is a
 * degradation shown in the detail, not a reason to take every api node out at once; so is a key
 * store that stopped answering (every node shares it, and it is reconnected without a restart).
 */
export function healthRoutes(ctx: Pick<AppContext, 'orm' | 'redis' | 'keyStore'>) {
  return s.router(healthContract, {
    live: async () => ({ status: 200, body: { status: 'ok' } }),
    ready: async () => {
      const [database, redis] = await Promise.all([
        within(ctx.orm.em.fork().execute('select 1')),
        ctx.redis ? within(ctx.redis.ping()) : Promise.resolve<Check>('not configured'),
      ]);
      const keyStore: Check = ctx.keyStore.health().up ? 'ok' : 'failed';
      const checks = { database, redis, key_store: keyStore };
      if (database !== 'ok') return { status: 503, body: { status: 'unavailable', checks } };
      const degraded = [
        ...(redis === 'failed' ? WITHOUT_REDIS : []),
        ...(keyStore === 'failed' ? WITHOUT_KEY_STORE : []),
      ];
      if (degraded.length) return { status: 200, body: { status: 'degraded', checks, degraded } };
      return { status: 200, body: { status: 'ok', checks } };
    },
  });
}
