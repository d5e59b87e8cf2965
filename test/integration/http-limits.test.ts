import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService({
    redis: false,
    env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS: '3' },
  });
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

/** A raw connection that sends `data` and reports what came back and how long until it closed. */
function slowClient(data: string): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => socket.write(data));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error('still open after 10 s'));
    }, 10_000);
  });
}

describe('slow and numerous clients', () => {
  it('closes a connection whose headers do not arrive in time', async () => {
    const { answer, closedAfterMs } = await slowClient('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(3_500);
  });

  it('closes a connection whose body does not arrive in time', async () => {
    // Authenticated, so that the service does wait for the body rather than answer 401 at once.
    const head = `POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminToken}\r\nContent-Type: application/json\r\n`;
    const { answer, closedAfterMs } = await slowClient(`${head}Content-Length: 100\r\n\r\n{"id":`);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(4_500);
  });

  it('closes connections beyond MAX_CONNECTIONS on arrival, and serves again once they are gone', async () => {
    const port = Number(new URL(t.baseUrl).port);
    const held = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect(port, '127.0.0.1', () => resolve(s));
          }),
      ),
    );
    // Let the server count them before the next one arrives.
    await new Promise((r) => setTimeout(r, 100));
    const refused = await slowClient('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(refused.answer).toBe('');
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
  });
});
