import type { HostileRequest } from './send.js';

/**
 * What reaches no route or only the edge: unknown and traversing paths in every audience's space,
 * malformed request lines, spoofed forwarding headers, methods on public documents.
 */
export function edgeCorpus(adminToken: string): HostileRequest[] {
  const admin = { authorization: `Bearer ${adminToken}` };
  const paths = [
    '/nope',
    '/api/v2/me',
    '/admin/v2/tenants',
    '/admin/v1/tenants/../keys',
    '/admin/v1/tenants/%2e%2e/keys',
    '//admin/v1/tenants',
    '/admin/v1/tenants/hostile-a/%2e%2e%2f%2e%2e%2fkeys',
    '/tenants/hostile-a/scim/v3/Users',
    '/tenants/hostile-a/scim/v2/%00',
    '/tenants/%E0%A4%A/scim/v2/Users',
    '/oauth2/nope',
    '/oid4vci/v1/nope',
    '/oid4vp/nope',
    '/.well-known/nope',
    '/.well-known/openid-credential-issuer/%00',
    '/credential-types/%00',
    '/status-lists/%E0%A4%A',
    '/status-lists/',
    '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/assets/..%2f..%2f..%2fpackage.json',
    '/openapi.json%00',
    '/healthz?%E0%A4%A',
    '/readyz?x=%00',
  ];
  const requests: HostileRequest[] = paths.flatMap((path) => [
    { label: `edge GET ${path}`, method: 'GET', path, headers: admin },
    {
      label: `edge POST ${path}`,
      method: 'POST',
      path,
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{}',
    },
  ]);
  const spoofed = {
    ...admin,
    'x-forwarded-for': '127.0.0.1, 10.0.0.1',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'attacker.example',
    'x-real-ip': '127.0.0.1',
  };
  requests.push(
    { label: 'edge spoofed forwarding headers', method: 'GET', path: '/admin/v1/tenants', headers: spoofed },
    {
      label: 'edge foreign Host',
      method: 'GET',
      path: '/.well-known/openid-credential-issuer',
      headers: { host: 'attacker.example' },
    },
    {
      label: 'edge Host with NUL-like escape',
      method: 'GET',
      path: '/.well-known/jwt-vc-issuer',
      headers: { host: 'a%00b' },
    },
    {
      label: 'edge Accept nonsense',
      method: 'GET',
      path: '/.well-known/openid-credential-issuer',
      headers: { accept: 'application/jwt;q=x, */*;;' },
    },
    { label: 'edge OPTIONS', method: 'OPTIONS', path: '/admin/v1/tenants', headers: admin },
    { label: 'edge TRACE', method: 'TRACE', path: '/api/v1/me', headers: admin },
    {
      label: 'edge absolute-form request line',
      method: 'GET',
      path: 'http://attacker.example/admin/v1/tenants',
      headers: admin,
    },
  );
  return requests;
}
