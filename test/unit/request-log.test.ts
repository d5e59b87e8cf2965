import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLog } from '../../server/http/request-log.js';

/** The request log line as pino-http wrote it: one per request, method and path only, nothing secret. */
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(JSON.parse(String(chunk)));
    done();
  },
});
let base = '';
let close: () => void;

beforeAll(async () => {
  const app = express()
    .use(requestLog(pino({ base: { service: 'credservice' } }, sink)))
    .get('/healthz', (_req, res) => void res.send('ok'))
    .get('/fails', (req, res) => void res.status(500).json({ id: req.id }))
    .get('/api/v1/me', (req, res) => void res.json({ id: req.id }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** The line of the request answered last (it is written when the response closes). */
async function lineOf(path: string, headers: Record<string, string> = {}) {
  const before = lines.length;
  const res = await fetch(`${base}${path}`, { headers });
  const body = await res.text();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { body, line: lines.length > before ? lines.at(-1) : undefined };
}

describe('request log', () => {
  it('writes one line per request: id, method, path without the query, status, time', async () => {
    const { body, line } = await lineOf('/api/v1/me?code=sekrit', { authorization: 'Bearer sekrit' });
    expect(line).toMatchObject({
      level: 30,
      service: 'credservice',
      req: { id: JSON.parse(body).id, method: 'GET', url: '/api/v1/me' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(Object.keys(line ?? {})).toEqual([
      'level',
      'time',
      'service',
      'req',
      'res',
      'responseTime',
      'msg',
    ]);
    expect(JSON.stringify(line)).not.toContain('sekrit');
  });

  it('takes the id from X-Request-ID', async () => {
    const { line } = await lineOf('/api/v1/me', { 'x-request-id': 'abc-123' });
    expect(line).toMatchObject({ req: { id: 'abc-123' } });
  });

  it('marks a 5xx answer as errored', async () => {
    const { line } = await lineOf('/fails');
    expect(line).toMatchObject({
      res: { statusCode: 500 },
      err: { message: 'failed with status code 500' },
      msg: 'request errored',
    });
  });

  it('leaves out probes', async () => {
    expect((await lineOf('/healthz')).line).toBeUndefined();
  });
});
