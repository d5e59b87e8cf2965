import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * The route a request matched, as its pattern (`/api/v1/issuances/:id`), never the concrete path:
 * labels must stay few. Routers mounted under a tenant's path name the tenant in their base URL,
 * which is folded back to `:tenant`. Requests no route took (404, refused by a guard) share one label.
 */
export function routeLabel(req: Request): string {
  const pattern = req.route?.path;
  if (typeof pattern !== 'string') return '(unmatched)';
  return `${req.baseUrl.replace(/^\/tenants\/[^/]+/, '/tenants/:tenant')}${pattern}` || '/';
}

/** Requests by method, route and status, and their latency, observed when the answer is sent. */
export function httpMetrics(registry: Registry) {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending the last byte of its answer',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
      requests.inc(labels);
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
