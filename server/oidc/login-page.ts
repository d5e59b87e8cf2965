import type { DigitalCredentialRequest } from '../../contract/oid4vp/dc-api-request.js';
import type { SessionApproval } from '../approvals/session-approval.js';
import { escapeHtml } from '../http/escape-html.js';
import { brandedPage, expiryHtml, type TenantPage } from '../tenants/branded-page.js';
import type { BrowserPresentation } from '../verification/browser-presentation.js';
import { dcApiResponsePath } from '../verification/dc-api-request.js';

/** Where the login page's one script is served (the CSP allows only scripts of this origin). */
export const LOGIN_SCRIPT_PATH = '/oauth2/login.js';

/** HTML of the OpenID Connect login: the page with the QR code (errors: renderErrorPage in branded-page). */

// The login page's own rules, after the shared look (brandedPage).
const STYLE = `
#qr { width: 16rem; height: 16rem; }
a.button, button.button { display: inline-block; padding: .6rem 1.2rem; border-radius: 8px; background: var(--brand);
           color: var(--on-brand); text-decoration: none; border: 0; font: inherit; cursor: pointer; }
#status { margin-top: 1rem; min-height: 1.5em; }
[data-state="failed"] #status, [data-state="expired"] #status { color: #b3261e; }
[hidden] { display: none; }`;

export interface LoginPageInput {
  sessionId: string;
  /** The page's title and heading, e.g. `Sign in to ACME Intranet`. */
  heading: string;
  /** What the person is asked to do, below the heading. */
  lead: string;
  /** Whom the return link (after a failure) goes back to. */
  returnTo: string;
  /** The relying party's tenant and the credential it asks for (display name), with the tenant's look. */
  tenant: TenantPage;
  /** When the presentation request expires. */
  expiresAt: Date;
  qrCode: string;
  authorizationRequestUri: string;
  /** What the QR code holds (the cross-device request), also as its data-uri. */
  crossDeviceUri: string;
  eventsUrl: string;
  /** The requests for one navigator.credentials.get call, offered only where the browser has the API. */
  dcApiRequests: DigitalCredentialRequest[];
  /** Where the page posts the browser wallet's answer (same origin, so the CSP allows it). */
  dcApiResponseUrl: string;
  completeUrl: string;
  scriptUrl: string;
  /** What the sign-in asks the user to approve (RFC 9396 authorization_details). */
  approval?: SessionApproval;
}

/** The approval the user is asked for, spelled out: the wallet shows the same before it signs. */
function approvalHtml(approval: SessionApproval | undefined): string {
  if (!approval) return '';
  const e = escapeHtml;
  const { transaction: t, power } = approval;
  const amount = t.amount
    ? `<dt>Amount</dt><dd id="approval-amount">${e(t.amount.value)} ${e(t.amount.currency)}</dd>`
    : '';
  const description = t.description ? `<dt>Description</dt><dd>${e(t.description)}</dd>` : '';
  return `<section id="approval"><h2>You are asked to approve</h2><dl>
<dt>Subject</dt><dd id="approval-subject">${e(t.subject)}</dd>${description}${amount}
<dt>As</dt><dd>${e(power.function)} / ${e(power.action)}${power.domain ? ` (${e(power.domain)})` : ''}</dd></dl>
<p>Your wallet will ask you to confirm it; approve only what you expect.</p></section>`;
}

/**
 * The login page, also the issuer's holder sign-in by presentation (browser-presentation.ts). The script (served separately, since the CSP forbids inline scripts) reads the
 * URLs from data attributes, follows the session over SSE and moves on when it is verified. Where
 * the browser has the Digital Credentials API, the script shows the #dc-api button (hidden for all
 * others), which hands `data-dc-requests` to the browser's wallet and posts its answer back.
 */
/** What a page around a started browser presentation says of itself; the rest comes from it. */
export type PresentationPageText = Pick<
  LoginPageInput,
  'heading' | 'lead' | 'returnTo' | 'tenant' | 'approval'
> & {
  /** The page's own state (the events stream and the completion are keyed by it). */
  state: string;
  completeUrl: string;
};

/**
 * The login page for a presentation `startBrowserPresentation` started: the OIDC login and the
 * issuer's sign-in by presentation both show it, with their own words and completion URL.
 */
export function renderPresentationPage(
  started: Pick<
    BrowserPresentation,
    'sessionId' | 'expiresIn' | 'qrCode' | 'authorizationRequestUri' | 'crossDeviceUri' | 'dcApiRequests'
  >,
  text: PresentationPageText,
): string {
  const { state, approval, ...words } = text;
  return renderLoginPage({
    ...words,
    sessionId: started.sessionId,
    expiresAt: new Date(Date.now() + started.expiresIn * 1000),
    qrCode: started.qrCode,
    authorizationRequestUri: started.authorizationRequestUri,
    crossDeviceUri: started.crossDeviceUri,
    eventsUrl: `/api/login/events?state=${state}`,
    dcApiRequests: started.dcApiRequests,
    dcApiResponseUrl: dcApiResponsePath(started.sessionId),
    scriptUrl: LOGIN_SCRIPT_PATH,
    ...(approval ? { approval } : {}),
  });
}

export function renderLoginPage(p: LoginPageInput): string {
  const e = escapeHtml;
  return brandedPage(
    p.heading,
    `<main id="login" data-state="pending" data-session="${e(p.sessionId)}" data-events="${e(p.eventsUrl)}" data-complete="${e(p.completeUrl)}" data-dc-requests="${e(JSON.stringify(p.dcApiRequests))}" data-dc-response="${e(p.dcApiResponseUrl)}">
<h1>${e(p.heading)}</h1>
<p>${e(p.lead)}</p>
${approvalHtml(p.approval)}
<img id="qr" src="${e(p.qrCode)}" data-uri="${e(p.crossDeviceUri)}" alt="QR code of the presentation request">
<p id="dc-api" hidden><button id="dc-api-button" class="button" type="button">Use a wallet of this browser</button></p>
<p><a id="same-device" class="button" href="${e(p.authorizationRequestUri)}">Open my wallet on this device</a></p>
<p id="status" role="status" aria-live="polite">Waiting for your wallet…</p>
<p id="return" hidden><a href="${e(p.completeUrl)}">Return to ${e(p.returnTo)}</a></p>
<p class="expiry">This request expires on ${expiryHtml(p.expiresAt)}.</p>
</main>`,
    { style: STYLE, script: p.scriptUrl, brand: p.tenant },
  );
}
