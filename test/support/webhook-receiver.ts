import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  event: { type: string; timestamp: string; tenant_id: string; data: Record<string, unknown> };
}

/**
 * Verifies a message as the Standard Webhooks libraries do, written here from the specification so
 * that the test does not check the service against its own signing code: base64 HMAC-SHA256 under
 * the key after `whsec_`, over "id.timestamp.body", matched against any `v1,` signature.
 */
export function verifiesWith(secret: string, m: ReceivedWebhook): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${m.id}.${m.timestamp}.${m.body}`).digest();
  return m.signatures.some((s) => {
    const [version, sig] = s.split(',');
    const given = Buffer.from(sig ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A real HTTP endpoint that keeps every webhook it is sent. `answer` decides each reply's status
 * (200 unless told otherwise), so a test can refuse a delivery and see it come again.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let answer: (m: ReceivedWebhook) => number = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const m: ReceivedWebhook = {
        id: String(req.headers['webhook-id']),
        timestamp: Number(req.headers['webhook-timestamp']),
        signatures: String(req.headers['webhook-signature'] ?? '').split(' '),
        body,
        event: JSON.parse(body),
      };
      received.push(m);
      res.writeHead(answer(m)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerWith(f: (m: ReceivedWebhook) => number) {
      answer = f;
    },
    /** Waits for a message `match` accepts and returns every accepted one seen by then. */
    async waitFor(match: (m: ReceivedWebhook) => boolean, count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook(s), got ${found.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
