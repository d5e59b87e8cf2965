import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stands in front of one tenant's SCIM endpoint for Microsoft's SCIM test collection: its first
 * request fetches a bearer token from `{Api}/Token` (its reference server handed tokens out; ours
 * are issued by the operator), so the proxy answers that with the tenant's SCIM token and forwards
 * everything else, unchanged, to `{service}/tenants/{id}/scim/v2`.
 */
export async function startScimTokenProxy(serviceUrl: string, tenantId: string, scimToken: string) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/scim/i, '');
    if (/^\/token\/?$/i.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: scimToken }));
      return;
    }
    const target = new URL(`${serviceUrl}/tenants/${tenantId}/scim/v2${path}`);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
