import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from './problem-details.js';

const c = initContract();
// The probes are not rate-limited; a malformed path or query (bad percent-encoding, control
// characters) is refused before any route, as everywhere.
const malformed = { 400: ProblemDetails };

export const Health = z.object({
  status: z
    .enum(['ok', 'degraded', 'unavailable'])
    .describe('degraded: requests are served, but something behind them waits (see `degraded`)'),
  checks: z.record(z.enum(['ok', 'failed', 'not configured'])).optional(),
  degraded: z
    .array(z.string())
    .optional()
    .describe('What does not work fully while a dependency is down, for operators'),
});

export const healthContract = c.router(
  {
    live: {
      method: 'GET',
      path: '/healthz',
      responses: { 200: Health, ...malformed },
      summary: 'The process is alive',
    },
    ready: {
      method: 'GET',
      path: '/readyz',
      responses: { 200: Health, 503: Health, ...malformed },
      summary:
        'The node can serve requests (200, also while Redis is down: degraded); 503 when its database does not answer',
    },
  },
  { strictStatusCodes: true },
);
