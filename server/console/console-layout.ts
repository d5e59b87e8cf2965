import { escapeHtml } from '../http/escape-html.js';
import type { ConsoleSession } from './console-session.js';

/** What every console page knows: the tenant it shows, who is signed in, and the CSRF token. */
export interface PageContext {
  tenantId: string | null;
  tenantName: string;
  logoUri: string | null;
  session: ConsoleSession | null;
  /** Path of the page, for aria-current in the navigation. */
  path: string;
}

const NAV = [
  ['issuances', 'Issuances and credentials'],
  ['presentations', 'Presentations'],
  ['relying-parties', 'Relying parties'],
  ['users', 'SCIM users'],
  ['groups', 'SCIM groups'],
  ['webhooks', 'Webhooks'],
  ['tokens', 'API tokens'],
  ['trust', 'Trust'],
  ['branding', 'Branding'],
  ['audit', 'Audit log'],
  ['charts', 'Charts'],
] as const;

export const consoleBase = (tenantId: string) => `/console/t/${encodeURIComponent(tenantId)}`;

/** The hidden field every state-changing form carries (checked in constant time on POST). */
export const csrfField = (session: ConsoleSession | null) =>
  session ? `<input type="hidden" name="csrf" value="${escapeHtml(session.csrf)}">` : '';

function navigation(p: PageContext): string {
  const links: string[] = [];
  if (p.tenantId) {
    const base = consoleBase(p.tenantId);
    for (const [slug, label] of NAV) {
      const href = `${base}/${slug}`;
      const current = p.path.startsWith(href) ? ' aria-current="page"' : '';
      links.push(`<li><a href="${escapeHtml(href)}"${current}>${label}</a></li>`);
    }
  }
  if (p.session?.role === 'operator') {
    links.push('<li><a href="/console/operator/tenants">All tenants</a></li>');
    links.push('<li><a href="/console/operator/keys">Keys and certificates</a></li>');
  }
  return links.length ? `<nav class="main" aria-label="Console"><ul>${links.join('')}</ul></nav>` : '';
}

function who(s: ConsoleSession | null): string {
  if (!s) return '';
  const name = escapeHtml(s.person.name);
  return `<span class="who">${name} (${s.role}) <form method="post" action="/console/sign-out">${csrfField(s)}<button type="submit">Sign out</button></form></span>`;
}

/** The page around a view: brand band, navigation, a main landmark with the title as its h1. */
export function consolePage(p: PageContext, title: string, body: string): string {
  const logo = p.logoUri
    ? `<img class="logo" src="${escapeHtml(p.logoUri)}" alt="" referrerpolicy="no-referrer">`
    : '';
  const brandCss = p.tenantId
    ? `<link rel="stylesheet" href="/console/assets/brand/${encodeURIComponent(p.tenantId)}.css">`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(p.tenantName)} console</title>
<link rel="stylesheet" href="/console/assets/console.css">${brandCss}
<script src="/console/assets/console.js" defer></script></head>
<body><a class="skip" href="#content">Skip to content</a>
<header class="brand">${logo}<span class="tenant">${escapeHtml(p.tenantName)}</span>${who(p.session)}</header>
${navigation(p)}
<main id="content" tabindex="-1"><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}
