import { escapeHtml } from '../../http/escape-html.js';
import { brandedPage, expiryHtml, type TenantPage } from '../../tenants/branded-page.js';

/** HTML of the holder's sign-in for an issuance: the one-time code form, and errors shown in place. */

// The form's own rules, after the shared look (brandedPage): inline styles only, no script needed.
const STYLE = `
input { font-size: 1.5rem; letter-spacing: .3rem; width: 10rem; text-align: center; padding: .4rem; }
button { margin-top: 1rem; padding: .6rem 1.2rem; border: 0; border-radius: 8px; background: var(--brand);
         color: var(--on-brand); font-size: 1rem; }`;

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
  return brandedPage(
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
    { style: STYLE, brand: p.tenant },
  );
}

/** An error that cannot be sent to the wallet (no trusted redirect_uri), shown to the holder. */
export { renderErrorPage as renderSignInError } from '../../tenants/branded-page.js';
