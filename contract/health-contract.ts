import { initContract } from '@ts-rest/core';
import { z } from 'zod';

const c = initContract();

export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.enum(['ok', 'failed', 'not configured'])).optional(),
});

export const healthContract = c.router(
  {
    live: {
      method: 'GET',
      path: '/healthz',
      responses: { 200: Health },
      summary: 'The process is alive',
    },
    ready: {
      method: 'GET',
      path: '/readyz',
      responses: { 200: Health, 503: Health },
      summary: 'The database and, when configured, Redis answer',
    },
  },
  { strictStatusCodes: true },
);
