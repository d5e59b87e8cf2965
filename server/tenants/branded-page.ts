import type { EntityManager } from '@mikro-orm/postgresql';
import type { Response } from 'express';
import { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { escapeHtml } from '../http/escape-html.js';
import { Tenant } from './tenant.entity.js';

/**
 * What a tenant's pages (the credential offer page, the OpenID Connect login page) show of the
 * tenant and the credential: names, logo, colour. Every value is escaped where it is written, and
 * the colour and logo address are checked again here although the admin API already did, since a
 * page must never carry markup or CSS from a stored value.
 */
export interface TenantPage {
  tenantName: string;
  /** The configuration's display name (English first), else its id. */
  credentialName: string;
  logoUri: string | null;
  primaryColor: string | null;
}

const COLOR = /^#[0-9a-fA-F]{6}$/;
// An origin that can stand in a CSP source list: https, a plain host name, an optional port.
const LOGO_ORIGIN = /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/;
const DEFAULT_COLOR = '#1f5fd1';

function logoOrigin(uri: string | null | undefined): string | null {
  if (!uri) return null;
  try {
    const { origin } = new URL(uri);
    return LOGO_ORIGIN.test(origin) ? origin : null;
  } catch {
    return null;
  }
}

/** The page of a tenant's credential; with no tenant (yet), the service's own name (`serviceName`). */
export async function loadTenantPage(
  em: EntityManager,
  tenantId: string | undefined,
  configurationId: string,
  serviceName = '',
): Promise<TenantPage> {
  const [tenant, configuration] = await Promise.all([
    tenantId ? em.findOne(Tenant, { id: tenantId }) : null,
    em.findOne(CredentialConfiguration, { id: configurationId }),
  ]);
  const display = configuration?.display ?? [];
  const name = (display.find((d) => d.locale.startsWith('en')) ?? display[0])?.name;
  const logo = tenant?.branding?.logo_uri;
  const color = tenant?.branding?.primary_color;
  return {
    tenantName: tenant?.name ?? tenantId ?? serviceName,
    credentialName: name ?? configurationId,
    logoUri: logo && logoOrigin(logo) ? logo : null,
    primaryColor: color && COLOR.test(color) ? color : null,
  };
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#111111' : '#ffffff';
}

/** CSS custom properties of the tenant's colour, for the page's own stylesheet to use. */
export function brandCss(p: TenantPage): string {
  const brand = p.primaryColor ?? DEFAULT_COLOR;
  return `:root { --brand: ${brand}; --on-brand: ${textOn(brand)}; }`;
}

/** The band at the top of a page: the tenant's logo (when set) and name. */
export function brandHeader(p: TenantPage): string {
  const logo = p.logoUri
    ? `<img class="logo" src="${escapeHtml(p.logoUri)}" alt="" referrerpolicy="no-referrer">`
    : '';
  return `<header class="brand">${logo}<span class="tenant">${escapeHtml(p.tenantName)}</span></header>`;
}

/**
 * Lets this response load the tenant's logo: its origin is added to the img-src of the
 * Content-Security-Policy the security headers set (only to that directive, only for this page).
 */
export function allowLogo(res: Response, p: TenantPage): void {
  const header = res.getHeader('Content-Security-Policy');
  const origin = logoOrigin(p.logoUri);
  if (!origin || typeof header !== 'string') return;
  const directives = header.split(';').map((d) => d.trim());
  const img = directives.findIndex((d) => d.split(/\s+/)[0] === 'img-src');
  const fallback = directives.find((d) => d.split(/\s+/)[0] === 'default-src');
  if (img >= 0) directives[img] = `${directives[img]} ${origin}`;
  else if (fallback) directives.push(`img-src ${fallback.slice('default-src'.length).trim()} ${origin}`);
  else return; // nothing restricts images
  res.setHeader('Content-Security-Policy', directives.filter(Boolean).join(';'));
}

/** `26 November 2026 at 13:05 UTC` inside a <time> element: pages are rendered without a script. */
export function expiryHtml(at: Date): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at);
  return `<time datetime="${at.toISOString()}">${escapeHtml(text)} UTC</time>`;
}

/**
 * The look every tenant page shares (the band, the card, the heading, the expiry line, errors).
 * Inline styles are allowed by helmet's default CSP (style-src 'unsafe-inline'); scripts are not.
 * --brand and --on-brand are the tenant's colour (brandCss) or the default blue.
 */
const PAGE_STYLE = `
:root { --brand: ${DEFAULT_COLOR}; --on-brand: #fff; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
.brand { display: flex; align-items: center; gap: .75rem; padding: .75rem 1.25rem;
         background: var(--brand); color: var(--on-brand); font-weight: 600; }
.brand .logo { height: 2rem; max-width: 8rem; object-fit: contain; }
main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px;
       box-shadow: 0 1px 4px rgba(0,0,0,.1); text-align: center; }
h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
.expiry { color: #5b6270; font-size: .9rem; }
.error { color: #b3261e; }`;

export interface PageOptions {
  /** The page's own rules, after the shared ones. */
  style?: string;
  /** A script served separately (the CSP forbids inline scripts). */
  script?: string;
  /** The tenant's look: its colour and the band with its logo and name. */
  brand?: TenantPage;
}

/** The HTML document around a page's body: the shared look, then the page's style, script and brand. */
export function brandedPage(title: string, body: string, o: PageOptions = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}${o.style ?? ''}${o.brand ? brandCss(o.brand) : ''}</style>
${o.script ? `<script src="${escapeHtml(o.script)}" defer></script>` : ''}
</head>
<body>
${o.brand ? brandHeader(o.brand) : ''}
${body}
</body>
</html>
`;
}

/**
 * An error shown to the person in the browser instead of sent to a client or wallet: a sign-in error
 * whose redirect_uri is not trusted (the OpenID Connect login and the issuance sign-in), and any
 * refusal of a page's address (a malformed URL, too many requests) under `heading`.
 */
export function renderErrorPage(error: string, description: string, heading = 'Sign-in failed'): string {
  return brandedPage(
    heading,
    `<main id="error" data-error="${escapeHtml(error)}">
<h1>${escapeHtml(heading)}</h1>
<p class="error">${escapeHtml(description)}</p>
<p><small>${escapeHtml(error)}</small></p>
</main>`,
  );
}
