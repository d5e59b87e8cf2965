import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Issue 21, defect 5: the pages a person's browser opens (the e-mailed offer's page, the
 * authorization endpoint and its completion) answered a malformed address (a NUL, a CR/LF, broken
 * percent-encoding) with OAuth JSON. They answer the branded HTML error page, 400, while the
 * wallet-facing routes beside them keep their JSON. Sent over a raw socket, so that no client
 * library repairs or refuses the request line first.
 */
let t: TestService;
beforeAll(async () => {
  t = await startTestService({ redis: false });
});
afterAll(() => t?.stop());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** GET `target` exactly as written in the request line. */
function rawGet(target: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
      ),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

const BAD_ENCODINGS = ['%zz', '%', '%E0%A4%A'];
const OFFER = '/oid4vci/v1/offer';
const AUTHORIZE = '/oauth2/authorize';
const COMPLETE = '/oauth2/authorize/complete';

/** The twelve cases: each fault in the offer page's path and query, and in both endpoints' queries. */
const CASES: [string, string[]][] = [
  ['offer page, NUL in the path', [`${OFFER}/a%00b`]],
  ['offer page, CR/LF in the path', [`${OFFER}/a%0D%0Ab`]],
  ['offer page, bad percent-encoding in the path', BAD_ENCODINGS.map((e) => `${OFFER}/a${e}`)],
  ['offer page, NUL in the query', [`${OFFER}/some-offer?x=a%00b`]],
  ['offer page, CR/LF in the query', [`${OFFER}/some-offer?x=a%0D%0Ab`]],
  ['offer page, bad percent-encoding in the query', BAD_ENCODINGS.map((e) => `${OFFER}/some-offer?x=${e}`)],
  ['authorize, NUL in the query', [`${AUTHORIZE}?client_id=a%00b&response_type=code`]],
  ['authorize, CR/LF in the query', [`${AUTHORIZE}?client_id=a&state=a%0D%0Ab`]],
  ['authorize, bad percent-encoding in the query', BAD_ENCODINGS.map((e) => `${AUTHORIZE}?client_id=${e}`)],
  ['complete, NUL in the query', [`${COMPLETE}?session=a%00b`]],
  ['complete, CR/LF in the query', [`${COMPLETE}?session=a%0D%0Ab`]],
  ['complete, bad percent-encoding in the query', BAD_ENCODINGS.map((e) => `${COMPLETE}?session=${e}`)],
];

describe('a malformed address of a page', () => {
  it.each(CASES)('%s: the HTML error page, 400', async (_, targets) => {
    for (const target of targets) {
      const res = await rawGet(target);
      expect(res.status, target).toBe(400);
      expect(res.headers['content-type'], target).toMatch(/^text\/html; charset=utf-8$/);
      expect(res.headers['cache-control'], target).toBe('no-store');
      expect(res.body, target).toMatch(/<main id="error" data-error="invalid_request">/);
      expect(res.body, target).toMatch(/<h1>This request cannot be completed<\/h1>/);
      expect(res.body, target).toMatch(/malformed percent-encoding|control characters/);
    }
  });

  it('is still JSON on the wallet routes beside the pages', async () => {
    for (const target of [
      '/oid4vci/v1/credential-offer/a%00b',
      '/oauth2/token?x=%zz',
      '/oauth2/login.js?%',
    ]) {
      const res = await rawGet(target);
      expect(res.status, target).toBe(400);
      expect(res.headers['content-type'], target).toMatch(/^application\/json/);
      expect(JSON.parse(res.body), target).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('answers an address under the pages that is no route with the HTML page, 404', async () => {
    const res = await rawGet(`${AUTHORIZE}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<h1>Page not found<\/h1>/);
  });
});
