import { escapeHtml } from '../http/escape-html.js';
import { brandCss, brandHeader, expiryHtml, type TenantPage } from '../tenants/branded-page.js';

/** HTML of the OpenID Connect login: the page with the QR code, and the page for errors shown in place. */

// Inline styles are allowed by helmet's default CSP (style-src 'unsafe-inline'); scripts are not.
// --brand and --on-brand are the tenant's colour (brandCss) or the default blue.
const STYLE = `
:root { --brand: #1f5fd1; --on-brand: #fff; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
.brand { display: flex; align-items: center; gap: .75rem; padding: .75rem 1.25rem;
         background: var(--brand); color: var(--on-brand); font-weight: 600; }
.brand .logo { height: 2rem; max-width: 8rem; object-fit: contain; }
main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px;
       box-shadow: 0 1px 4px rgba(0,0,0,.1); text-align: center; }
h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
#qr { width: 16rem; height: 16rem; }
a.button { display: inline-block; padding: .6rem 1.2rem; border-radius: 8px; background: var(--brand);
           color: var(--on-brand); text-decoration: none; }
.expiry { color: #5b6270; font-size: .9rem; }
#status { margin-top: 1rem; min-height: 1.5em; }
[data-state="failed"] #status, [data-state="expired"] #status, .error { color: #b3261e; }
[hidden] { display: none; }`;

function page(title: string, body: string, script?: string, brand?: TenantPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${brand ? brandCss(brand) : ''}</style>
${script ? `<script src="${escapeHtml(script)}" defer></script>` : ''}
</head>
<body>
${brand ? brandHeader(brand) : ''}
${body}
</body>
</html>
`;
}

export interface LoginPageInput {
  sessionId: string;
  clientName: string;
  /** The relying party's tenant and the credential it asks for (display name), with the tenant's look. */
  tenant: TenantPage;
  /** When the presentation request expires. */
  expiresAt: Date;
  qrCode: string;
  authorizationRequestUri: string;
  /** What the QR code holds (the cross-device request), also as its data-uri. */
  crossDeviceUri: string;
  eventsUrl: string;
  completeUrl: string;
  scriptUrl: string;
}

/**
 * The login page. The script (served separately, since the CSP forbids inline scripts) reads the
 * URLs from data attributes, follows the session over SSE and moves on when it is verified.
 */
export function renderLoginPage(p: LoginPageInput): string {
  const e = escapeHtml;
  return page(
    `Sign in to ${p.clientName}`,
    `<main id="login" data-state="pending" data-session="${e(p.sessionId)}" data-events="${e(p.eventsUrl)}" data-complete="${e(p.completeUrl)}">
<h1>Sign in to ${e(p.clientName)}</h1>
<p>Scan the code with your wallet and present your ${e(p.tenant.credentialName)}.</p>
<img id="qr" src="${e(p.qrCode)}" data-uri="${e(p.crossDeviceUri)}" alt="QR code of the presentation request">
<p><a id="same-device" class="button" href="${e(p.authorizationRequestUri)}">Open my wallet on this device</a></p>
<p id="status" role="status" aria-live="polite">Waiting for your wallet…</p>
<p id="return" hidden><a href="${e(p.completeUrl)}">Return to ${e(p.clientName)}</a></p>
<p class="expiry">This request expires on ${expiryHtml(p.expiresAt)}.</p>
</main>`,
    p.scriptUrl,
    p.tenant,
  );
}

/** An error that must not be sent to the client (its redirect_uri is not trusted), shown to the user. */
export function renderErrorPage(error: string, description: string): string {
  return page(
    'Sign-in failed',
    `<main id="error" data-error="${escapeHtml(error)}">
<h1>Sign-in failed</h1>
<p class="error">${escapeHtml(description)}</p>
<p><small>${escapeHtml(error)}</small></p>
</main>`,
  );
}
