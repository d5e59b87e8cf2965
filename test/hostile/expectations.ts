import type { HostileAnswer } from './send.js';

type Audience = 'problem' | 'scim' | 'oauth' | 'page';

/**
 * Which error format a path owes its callers, decided here independently of the service's own
 * routing: SCIM clients get SCIM errors, wallets and relying parties OAuth errors, the browser pages
 * (login, offer) an HTML page or an OAuth error, everyone else RFC 9457 problem details.
 */
export function audienceOf(path: string): Audience {
  const p = path.split('?')[0] ?? '';
  if (/^\/tenants\/[^/]*\/scim\/v2(\/|$)/.test(p)) return 'scim';
  if (/^\/oauth2\/authorize(\/|$)/.test(p) || p.startsWith('/oid4vci/v1/offer/')) return 'page';
  if (/^\/console(\/|$)/.test(p)) return 'page';
  if (/^\/(oid4vci|oid4vp|oauth2|\.well-known|credential-types)(\/|$)/.test(p) || p.startsWith('/api/login/'))
    return 'oauth';
  return 'problem';
}

function json(body: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** What is wrong with an error answer's format for its audience, or undefined when it is right. */
function formatFault(a: HostileAnswer): string | undefined {
  const audience = audienceOf(a.request.path);
  const type = a.contentType.split(';')[0]?.trim();
  const body = json(a.body);
  const oauth = () =>
    type === 'application/json' && typeof body?.error === 'string'
      ? undefined
      : `not an OAuth error (${type})`;
  switch (audience) {
    case 'problem':
      if (type !== 'application/problem+json') return `not problem+json (${type})`;
      return typeof body?.type === 'string' && body.status === a.status ? undefined : 'malformed problem';
    case 'scim': {
      if (type !== 'application/scim+json') return `not scim+json (${type})`;
      const schemas = body?.schemas as unknown[] | undefined;
      const ok =
        schemas?.includes('urn:ietf:params:scim:api:messages:2.0:Error') && body?.status === String(a.status);
      return ok ? undefined : 'malformed SCIM error';
    }
    case 'oauth':
      return oauth();
    case 'page':
      return type === 'text/html' ? undefined : oauth();
  }
}

export type Verdict = 'ok' | '5xx' | 'no answer' | 'wrong format' | 'wrong status';

/**
 * RFC 7644 sections 3.7 and 3.11: a service provider without bulk operations or /Me answers those
 * endpoints 501 Not Implemented. The one 5xx the suite accepts, and only there.
 */
const SCIM_NOT_IMPLEMENTED = /^\/tenants\/[^/]+\/scim\/v2\/(Bulk|Me)$/;

/** Every answer: no 5xx, an answer at all, and a 4xx in its audience's format. */
export function judge(a: HostileAnswer): { verdict: Verdict; why?: string } {
  if (a.failure) return { verdict: 'no answer', why: a.failure };
  const notImplemented = a.status === 501 && SCIM_NOT_IMPLEMENTED.test(a.request.path);
  if (a.status >= 500 && !notImplemented) return { verdict: '5xx', why: a.body.slice(0, 200) };
  const expected = a.request.expect;
  if (expected && !expected.includes(a.status))
    return { verdict: 'wrong status', why: `expected ${expected.join(' or ')}` };
  if (a.status >= 400) {
    // A 501 of SCIM is still a SCIM error.
    const fault = formatFault(a);
    if (fault) return { verdict: 'wrong format', why: fault };
  }
  return { verdict: 'ok' };
}
