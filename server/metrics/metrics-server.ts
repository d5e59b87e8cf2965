import type { Server } from 'node:http';
import express from 'express';
import { asyncHandler } from '../http/async-handler.js';
import type { MetricsSettings } from './metrics-settings.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * METRICS_PORT: /metrics on a listener of its own, bound to METRICS_HOST (loopback unless the
 * operator says otherwise), on every role, so a worker node can be scraped too. Nothing else is
 * served there. METRICS_TOKEN, when set, is required here as well.
 */
export async function listenMetrics(
  metrics: ServiceMetrics,
  s: MetricsSettings,
): Promise<Server | undefined> {
  const port = s.METRICS_PORT;
  if (port === undefined) return undefined;
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', asyncHandler(metrics.serve));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('only /metrics is served here\n');
  });
  return new Promise((resolve, reject) => {
    const server = app.listen(port, s.METRICS_HOST, () => {
      server.off('error', reject);
      resolve(server);
    });
    server.once('error', reject);
  });
}
