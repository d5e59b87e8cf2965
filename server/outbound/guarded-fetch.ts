import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { addressAllowed } from './address-policy.js';
import type { OutboundPolicy } from './outbound-policy.js';

export class OutboundError extends Error {}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Overrides the policy's timeout (the whole exchange, connect to last byte). */
  timeoutMs?: number;
  /** Overrides the policy's cap on the response body. */
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  ok: boolean;
  headers: http.IncomingHttpHeaders;
  text(): string;
  json(): unknown;
  /** The body as received (a binary format such as a CWT). */
  bytes(): Buffer;
}

/**
 * The one way this service calls out (status lists, issuer metadata, audit sinks). The host name is
 * resolved here and every address it resolves to is checked before connecting, to that very address,
 * so a name cannot point at a private network after the check. No redirects are followed (a 3xx is an
 * error); the response is read to at most `maxBytes`; the whole exchange has one deadline.
 */
export async function guardedFetch(
  policy: OutboundPolicy,
  url: string,
  request: OutboundRequest = {},
): Promise<OutboundResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundError(`${url} is not a URL`);
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    throw new OutboundError(`${target.protocol} URLs are not fetched`);
  if (target.username || target.password) throw new OutboundError('URLs with credentials are not fetched');
  const trusted = policy.trustedOrigins.has(target.origin);
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !trusted && !addressAllowed(a.address, policy.allowPrivate));
      if (refused || !list.length)
        return callback(new OutboundError(`${hostname} resolves to a private address`), '', 4);
      if (options.all) return callback(null, list as never);
      const first = list[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!trusted && /^[\d.]+$|:/.test(host) && !addressAllowed(host, policy.allowPrivate))
    throw new OutboundError(`${host} is a private address`);

  const timeoutMs = request.timeoutMs ?? policy.timeoutMs;
  const maxBytes = request.maxBytes ?? policy.maxBytes;
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = client.request(target, {
      method: request.method ?? 'GET',
      headers: request.headers,
      lookup,
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const fail = (e: unknown) => {
      req.destroy();
      const why = (e as Error)?.name === 'AbortError' ? `no answer within ${timeoutMs} ms` : String(e);
      reject(e instanceof OutboundError ? e : new OutboundError(`${target.origin}: ${why}`));
    };
    req.on('error', fail);
    req.on('response', (res) => {
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400)
        return fail(new OutboundError(`${target.origin} answered a redirect, which is not followed`));
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes)
        return fail(new OutboundError(`${target.origin} answered more than ${maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail(new OutboundError(`${target.origin} answered more than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = raw.toString('utf8');
        const status = res.statusCode ?? 0;
        resolve({
          status,
          ok: status >= 200 && status < 300,
          headers: res.headers,
          text: () => body,
          json: () => JSON.parse(body),
          bytes: () => raw,
        });
      });
    });
    req.end(request.body);
  });
}
