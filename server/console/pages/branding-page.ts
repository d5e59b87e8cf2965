import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { brandOf } from './branding-preview.js';
import { field } from './view-helpers.js';

/** The console's CSP with frames of its own origin allowed: this page frames the previews. */
const withFrames = (res: Response) => {
  const csp = String(res.getHeader('Content-Security-Policy') ?? '');
  res.setHeader('Content-Security-Policy', `${csp}; frame-src 'self'`);
};

/**
 * GET …/branding: the tenant's logo and colour, and the offer page and the login page as they render
 * with them (or with a colour and logo to try, given in the form; nothing is saved). Each preview is
 * a sandboxed frame: no script runs in it and it can reach nothing. Branding is set by the operator.
 */
export async function brandingPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const brand = await brandOf(req, c.tenantId);
  const base = consoleBase(c.tenantId);
  const tried = new URLSearchParams(
    Object.entries({ primary_color: req.query.primary_color, logo_uri: req.query.logo_uri }).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
    ),
  ).toString();
  const frame = (page: string, title: string) =>
    `<figure class="preview"><figcaption>${title}</figcaption><iframe sandbox title="${title}" src="${escapeHtml(`${base}/branding/preview/${page}${tried ? `?${tried}` : ''}`)}" width="420" height="640"></iframe></figure>`;
  const body = `<dl><dt>Colour</dt><dd id="brand-color">${escapeHtml(brand.primaryColor ?? 'the default blue')}</dd>
<dt>Logo</dt><dd>${escapeHtml(brand.logoUri ?? 'none')}</dd></dl>
<p>Branding is set by the operator (<code>PUT /admin/v1/tenants/{id}</code>, <code>branding</code>). Try a colour or logo here before asking for it; nothing is saved.</p>
<form class="filters" method="get" aria-label="Try a branding">${field('primary_color', 'Colour (#rrggbb)', typeof req.query.primary_color === 'string' ? req.query.primary_color : undefined)}
${field('logo_uri', 'Logo (https)', typeof req.query.logo_uri === 'string' ? req.query.logo_uri : undefined)}<button type="submit">Preview</button></form>
<div class="previews">${frame('offer', 'The offer page')}${frame('login', 'The login page')}</div>`;
  withFrames(res);
  res.type('html').send(consolePage({ ...c, path: req.path }, 'Branding', body));
}
