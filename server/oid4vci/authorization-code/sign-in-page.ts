import { escapeHtml } from '../../http/escape-html.js';
import { brandedPage, expiryHtml, type TenantPage } from '../../tenants/branded-page.js';

/** HTML of the holder's sign-in for an issuance: the one-time code form, and errors shown in place. */

// The form's own rules, after the shared look (brandedPage): inline styles only, no script needed.
const STYLE = `
input { font-size: 1.5rem; letter-spacing: .3rem; width: 10rem; text-align: center; padding: .4rem; }
input.email { font-size: 1rem; letter-spacing: normal; width: 18rem; text-align: left; }
button { margin-top: 1rem; padding: .6rem 1.2rem; border: 0; border-radius: 8px; background: var(--brand);
         color: var(--on-brand); font-size: 1rem; }`;

export interface SignInPageInput {
  tenant: TenantPage;
  session: string;
  action: string;
  /** The address the code went to, partly hidden. */
  maskedEmail: string;
  /** Wallet-initiated: the holder typed the address, and the page must not say whether it is known. */
  typedByHolder?: boolean;
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
<p>${
      p.typedByHolder
        ? `If ${e(p.maskedEmail)} is known to us, we sent a one-time code to it.`
        : `We sent a one-time code to ${e(p.maskedEmail)}.`
    } Enter it to continue to your wallet.</p>
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

export interface EmailPageInput {
  tenant: TenantPage;
  session: string;
  action: string;
  expiresAt: Date;
  error?: string;
}

/** Wallet-initiated: the holder's address, to which the one-time code is sent. */
export function renderEmailPage(p: EmailPageInput): string {
  const e = escapeHtml;
  return brandedPage(
    `Receive your ${p.tenant.credentialName}`,
    `<main id="sign-in">
<h1>Receive your ${e(p.tenant.credentialName)}</h1>
<p>Enter the e-mail address your organisation knows you by. We will send a one-time code to it.</p>
${p.error ? `<p id="error" class="error" role="alert">${e(p.error)}</p>` : ''}
<form method="post" action="${e(p.action)}">
<input type="hidden" name="session" value="${e(p.session)}">
<label for="email">E-mail address</label><br>
<input id="email" class="email" name="email" type="email" autocomplete="email" maxlength="254" required>
<br><button type="submit">Send code</button>
</form>
<p class="expiry">This sign-in expires on ${expiryHtml(p.expiresAt)}.</p>
</main>`,
    { style: STYLE, brand: p.tenant },
  );
}

/** An error that cannot be sent to the wallet (no trusted redirect_uri), shown to the holder. */
export { renderErrorPage as renderSignInError } from '../../tenants/branded-page.js';
