import { escapeHtml } from '../../http/escape-html.js';
import { brandCss, brandHeader, expiryHtml, type TenantPage } from '../../tenants/branded-page.js';

/** HTML of the holder's sign-in for an issuance: the one-time code form, and errors shown in place. */

// The login page's look (server/oidc/login-page.ts): inline styles only, no script needed.
const STYLE = `
:root { --brand: #1f5fd1; --on-brand: #fff; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
.brand { display: flex; align-items: center; gap: .75rem; padding: .75rem 1.25rem;
         background: var(--brand); color: var(--on-brand); font-weight: 600; }
.brand .logo { height: 2rem; max-width: 8rem; object-fit: contain; }
main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px;
       box-shadow: 0 1px 4px rgba(0,0,0,.1); text-align: center; }
h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
input { font-size: 1.5rem; letter-spacing: .3rem; width: 10rem; text-align: center; padding: .4rem; }
button { margin-top: 1rem; padding: .6rem 1.2rem; border: 0; border-radius: 8px; background: var(--brand);
         color: var(--on-brand); font-size: 1rem; }
.expiry { color: #5b6270; font-size: .9rem; }
.error { color: #b3261e; }`;

function page(title: string, body: string, brand?: TenantPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${brand ? brandCss(brand) : ''}</style>
</head>
<body>
${brand ? brandHeader(brand) : ''}
${body}
</body>
</html>
`;
}

export interface SignInPageInput {
  tenant: TenantPage;
  session: string;
  action: string;
  /** The address the code went to, partly hidden. */
  maskedEmail: string;
  expiresAt: Date;
  error?: string;
}

/** `a***@example.com`: enough for the holder to recognise the address, not enough to harvest it. */
export const maskEmail = (email: string) => email.replace(/^(.)[^@]*/, '$1***');

export function renderSignInPage(p: SignInPageInput): string {
  const e = escapeHtml;
  return page(
    `Receive your ${p.tenant.credentialName}`,
    `<main id="sign-in">
<h1>Receive your ${e(p.tenant.credentialName)}</h1>
<p>We sent a one-time code to ${e(p.maskedEmail)}. Enter it to continue to your wallet.</p>
${p.error ? `<p id="error" class="error" role="alert">${e(p.error)}</p>` : ''}
<form method="post" action="${e(p.action)}">
<input type="hidden" name="session" value="${e(p.session)}">
<label for="one_time_code">One-time code</label><br>
<input id="one_time_code" name="one_time_code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
<br><button type="submit">Continue</button>
</form>
<p class="expiry">This code expires on ${expiryHtml(p.expiresAt)}.</p>
</main>`,
    p.tenant,
  );
}

/** An error that cannot be sent to the wallet (no trusted redirect_uri), shown to the holder. */
export function renderSignInError(error: string, description: string): string {
  return page(
    'Sign-in failed',
    `<main id="error" data-error="${escapeHtml(error)}">
<h1>Sign-in failed</h1>
<p class="error">${escapeHtml(description)}</p>
<p><small>${escapeHtml(error)}</small></p>
</main>`,
  );
}
