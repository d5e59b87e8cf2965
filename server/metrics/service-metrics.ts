import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { AppContext } from '../app-context.js';
import { bearerSecretCheck } from '../tenants/token-auth.js';
import { dependencyMetrics } from './dependency-metrics.js';
import { domainMetrics } from './domain-metrics.js';
import { httpMetrics } from './http-metrics.js';
import { keyStoreMetrics } from './key-store-metrics.js';
import { queueMetrics } from './queue-metrics.js';
import { stateMetrics } from './state-metrics.js';

export interface ServiceMetrics {
  registry: Registry;
  /** Counts and times every request; mounted first in the app. */
  observeRequests: RequestHandler;
  /** GET /metrics: the Prometheus text exposition, behind METRICS_TOKEN when it is set. */
  serve: (req: Request, res: Response) => Promise<void>;
  stop(): Promise<void>;
}

type MetricsContext = Pick<AppContext, 'config' | 'orm' | 'logger' | 'redis' | 'keyStore'>;

/** One registry per running service (tests run several in one process), found through its ORM. */
const perService = new WeakMap<object, ServiceMetrics>();

export function metricsOf(ctx: MetricsContext): ServiceMetrics {
  let metrics = perService.get(ctx.orm);
  if (!metrics) {
    metrics = createMetrics(ctx);
    perService.set(ctx.orm, metrics);
  }
  return metrics;
}

function createMetrics(ctx: MetricsContext): ServiceMetrics {
  const registry = new Registry();
  // Process RSS, heap, event loop lag, GC: prom-client's standard process and Node.js series.
  collectDefaultMetrics({ register: registry });
  stateMetrics(registry, ctx.logger, () => ctx.orm.em.fork());
  dependencyMetrics(registry, () => ctx.orm.em.fork(), ctx.redis);
  keyStoreMetrics(registry, ctx.keyStore);
  // On the ORM's own event manager, so only this service's transactions count here.
  ctx.orm.em.getEventManager().registerSubscriber(domainMetrics(registry));
  const stopQueues = ctx.redis
    ? queueMetrics(registry, ctx.logger, ctx.redis, ctx.config.QUEUE_PREFIX)
    : async () => undefined;
  const presentsToken = bearerSecretCheck(ctx.config.METRICS_TOKEN);
  return {
    registry,
    observeRequests: httpMetrics(registry),
    async serve(req, res) {
      if (presentsToken && !presentsToken(req.headers.authorization)) {
        res.status(401).set('www-authenticate', 'Bearer').type('text/plain').send('METRICS_TOKEN required\n');
        return;
      }
      res
        .set('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    },
    stop: stopQueues,
  };
}
