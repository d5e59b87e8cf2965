import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, parseAllowList } from '../../server/outbound/address-policy.js';
import { guardedFetch, OutboundError } from '../../server/outbound/guarded-fetch.js';
import type { OutboundPolicy } from '../../server/outbound/outbound-policy.js';

/**
 * The one outbound fetch against real local servers: private addresses are refused by literal and by
 * what a name resolves to, unless allowed; redirects are never followed; bodies are capped; slow
 * servers time out.
 */
let server: http.Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/ok') return res.end('hello');
    if (req.url === '/redirect') return res.writeHead(302, { location: '/ok' }).end();
    if (req.url === '/big') return res.end('x'.repeat(5_000));
    if (req.url === '/chunked') {
      res.writeHead(200); // no content-length: the cap must hold while streaming
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1_000));
      return res.end();
    }
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2_000);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const policy = (allow?: string, trusted: string[] = []): OutboundPolicy => ({
  allowPrivate: parseAllowList(allow),
  trustedOrigins: new Set(trusted),
  timeoutMs: 500,
  maxBytes: 1_000,
});

describe('guardedFetch', () => {
  it('refuses a private address given literally or behind a name, and allows it when listed', async () => {
    await expect(guardedFetch(policy(), `${base}/ok`)).rejects.toThrow(/private address/);
    const byName = base.replace('127.0.0.1', 'localhost');
    await expect(guardedFetch(policy(), `${byName}/ok`)).rejects.toThrow(/private address/);
    expect(hits).not.toContain('/ok');
    const allowed = await guardedFetch(policy('127.0.0.0/8'), `${byName}/ok`);
    expect([allowed.status, allowed.text()]).toEqual([200, 'hello']);
    const own = await guardedFetch(policy(undefined, [base]), `${base}/ok`);
    expect(own.text()).toBe('hello');
  });

  it('does not follow redirects', async () => {
    hits.length = 0;
    await expect(guardedFetch(policy('127.0.0.1'), `${base}/redirect`)).rejects.toThrow(/redirect/);
    expect(hits).toEqual(['/redirect']);
  });

  it('caps the body, declared or streamed, and times out', async () => {
    await expect(guardedFetch(policy('127.0.0.1'), `${base}/big`)).rejects.toThrow(/more than 1000 bytes/);
    await expect(guardedFetch(policy('127.0.0.1'), `${base}/chunked`)).rejects.toThrow(
      /more than 1000 bytes/,
    );
    const started = Date.now();
    await expect(guardedFetch(policy('127.0.0.1'), `${base}/slow`)).rejects.toThrow(/within 500 ms/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('fetches only http and https URLs without credentials', async () => {
    for (const url of ['file:///etc/passwd', 'gopher://example.com/', 'http://user:pw@example.com/', 'nope'])
      await expect(guardedFetch(policy(), url)).rejects.toBeInstanceOf(OutboundError);
  });
});

describe('addressAllowed', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
  ])('%s → %s', (address, allowed) => {
    expect(addressAllowed(address, parseAllowList(undefined))).toBe(allowed);
  });

  it('lets the allow list open single addresses and ranges', () => {
    const list = parseAllowList('10.0.0.0/8, ::1');
    expect(addressAllowed('10.9.9.9', list)).toBe(true);
    expect(addressAllowed('::1', list)).toBe(true);
    expect(addressAllowed('192.168.0.1', list)).toBe(false);
    expect(() => parseAllowList('not-an-ip')).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
  });
});
