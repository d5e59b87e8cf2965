import type { HostileRequest } from './send.js';

const TENANT = 'hostile-a';
const CREDENTIAL = '00000000-0000-4000-8000-000000000000';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const COOKIES = [
  'console=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'console=../../etc/passwd',
  `console=${'x'.repeat(4000)}`,
  'console=%00; console=; __Host-console=abc',
];

/**
 * The console's routes (/console) with no session, forged or replayed session cookies, forms
 * without a CSRF token, spoofed operator links and malformed tenant ids: each is refused with a
 * redirect to the start page or an HTML page, never a 5xx, and changes nothing. World tenants have
 * no console settings, so no sign-in can start (and register a relying party) either.
 */
export function consoleCorpus(): HostileRequest[] {
  const pages = [
    'issuances',
    'issuances/x',
    'users',
    'audit?before=-1',
    'charts',
    'presentations?before=x',
    'presentations/..%2F',
    'relying-parties',
    'groups',
    'branding?primary_color=%3Cx',
    'branding/preview/login',
  ];
  const requests: HostileRequest[] = [];
  for (const cookie of ['', ...COOKIES]) {
    const headers: Record<string, string> = cookie ? { cookie } : {};
    for (const page of pages)
      requests.push({
        label: `console GET ${page} (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'GET',
        path: `/console/t/${TENANT}/${page}`,
        headers,
        expect: [303],
      });
    requests.push(
      {
        label: `console revoke without session (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'POST',
        path: `/console/t/${TENANT}/credentials/${CREDENTIAL}/revoke`,
        headers: { ...headers, ...FORM },
        body: 'reason=x&csrf=y',
        expect: [401],
      },
      {
        label: `console withdraw without session (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'POST',
        path: `/console/t/${TENANT}/issuances/x/withdraw`,
        headers: { ...headers, ...FORM },
        body: 'reason=x',
        expect: [401],
      },
      {
        label: `console relying party removal without session (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'POST',
        path: `/console/t/${TENANT}/relying-parties/rp_x/remove`,
        headers: { ...headers, ...FORM },
        body: 'csrf=y',
        expect: [401],
      },
      {
        label: `console operator CSR without session (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'POST',
        path: '/console/operator/keys/issuer/csr',
        headers: { ...headers, ...FORM },
        body: 'csrf=y',
        expect: [404],
      },
      {
        label: `console sign-out without session (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'POST',
        path: '/console/sign-out',
        headers: { ...headers, ...FORM },
        body: 'csrf=x',
        expect: [303],
      },
      {
        label: `console operator pages without session (${cookie.slice(0, 20) || 'no cookie'})`,
        method: 'GET',
        path: '/console/operator/tenants',
        headers,
        expect: [404],
      },
    );
  }
  for (const link of ['', 'link=', `link=${'A'.repeat(43)}`, 'link=x&link=y', `link=${'%00'.repeat(50)}`])
    requests.push({
      label: `console operator link ${link.slice(0, 20)}`,
      method: 'POST',
      path: '/console/operator',
      headers: FORM,
      body: link,
      // A NUL in the form is refused at the edge (400) before any link is looked at.
      expect: [400, 403],
    });
  for (const tenant of [TENANT, 'HOSTILE-A', '%00', 'a'.repeat(200), 'nope'])
    requests.push({
      label: `console sign-in of ${tenant.slice(0, 20)}`,
      method: 'GET',
      path: `/console/t/${tenant}/sign-in`,
      expect: [400, 404],
    });
  requests.push(
    {
      label: 'console callback without the sign-in cookie',
      method: 'GET',
      path: `/console/t/${TENANT}/callback?state=abc&code=def`,
      expect: [400],
    },
    {
      label: 'console callback with a forged state cookie',
      method: 'GET',
      path: `/console/t/${TENANT}/callback?state=abc&code=def`,
      headers: { cookie: 'console-sign-in=abc' },
      expect: [400],
    },
    {
      label: 'console revoke with a JSON body',
      method: 'POST',
      path: `/console/t/${TENANT}/credentials/${CREDENTIAL}/revoke`,
      headers: { 'content-type': 'application/json', cookie: COOKIES[0] as string },
      body: '{"csrf":"x"}',
      expect: [401, 415],
    },
    {
      label: 'console revoke with an oversized form',
      method: 'POST',
      path: `/console/t/${TENANT}/credentials/${CREDENTIAL}/revoke`,
      headers: FORM,
      body: `reason=${'x'.repeat(40_000)}`,
      expect: [413],
    },
    {
      label: 'console sign-in with a tenant array',
      method: 'GET',
      path: '/console/sign-in?tenant[]=x',
      expect: [303],
    },
    {
      label: 'console brand css traversal',
      method: 'GET',
      path: '/console/assets/brand/..%2f..%2fpackage.json.css',
      expect: [200, 404],
    },
  );
  return requests;
}
