import http from 'node:http';

/** Whose error format an answer must have: see expectations.ts. */
export type Audience = 'problem' | 'scim' | 'oauth' | 'page';

/** One hostile request, exactly as it goes on the wire: the path is sent unnormalised. */
export interface HostileRequest {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The statuses a correct service answers it with, when the request alone decides. */
  expect?: number[];
}

export interface HostileAnswer {
  request: HostileRequest;
  status: number;
  contentType: string;
  body: string;
  /** Set when no HTTP answer came (reset, timeout). */
  failure?: string;
}

const TIMEOUT_MS = 15_000;

/**
 * Sends a request with node:http rather than fetch: fetch would normalise the path (`..`, percent
 * escapes) and refuse bodies on GET, and the point is to send what an attacker sends.
 */
function sendOne(base: URL, agent: http.Agent, request: HostileRequest): Promise<HostileAnswer> {
  return new Promise((resolve) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    // An empty value stands for a header left out (e.g. no Authorization at all).
    const given = Object.entries(request.headers ?? {}).filter(([, v]) => v !== '');
    const headers = {
      ...(body ? { 'content-length': String(body.length) } : {}),
      ...Object.fromEntries(given),
    };
    const req = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            request,
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (e) =>
          resolve({ request, status: 0, contentType: '', body: '', failure: e.message }),
        );
      },
    );
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ request, status: 0, contentType: '', body: '', failure: e.message }));
    req.end(body);
  });
}

/** Sends every request with at most `concurrency` in flight; answers in the order of the requests. */
export async function sendAll(
  baseUrl: string,
  requests: HostileRequest[],
  concurrency: number,
): Promise<HostileAnswer[]> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const answers: HostileAnswer[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      answers[i] = await sendOne(base, agent, requests[i] as HostileRequest);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return answers;
}
