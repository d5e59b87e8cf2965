import { escapeHtml } from '../../http/escape-html.js';

/** The shape of the API's uuid ids: anything else in a console URL is no such thing (404). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A status word with its colour class (the word itself carries the meaning, not the colour). */
export const statusBadge = (status: string) =>
  `<span class="status status-${escapeHtml(status)}">${escapeHtml(status)}</span>`;

/** A time in UTC, machine-readable for assistive tools and the script that shows local time. */
export const time = (iso: string | null | undefined) =>
  iso
    ? `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').slice(0, 19))} UTC</time>`
    : '—';

/** A query parameter as text, if given and not too long; anything else is treated as absent. */
export const queryText = (value: unknown, max = 320): string | undefined =>
  typeof value === 'string' && value.trim() && value.length <= max ? value.trim() : undefined;

/** A date input (yyyy-mm-dd) as the start of that day in UTC, or undefined. */
export const dayStart = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
    ? new Date(`${value}T00:00:00Z`).toISOString()
    : undefined;

/** A labelled text or date field of a filter form, keeping the value the page was asked with. */
export const field = (name: string, label: string, value: string | undefined, type = 'text') =>
  `<label>${escapeHtml(label)}<input type="${type}" name="${name}" value="${escapeHtml(value ?? '')}"></label>`;

/** A labelled select of a filter form. */
export function select(name: string, label: string, options: readonly string[], value: string | undefined) {
  const opts = ['', ...options]
    .map(
      (o) =>
        `<option value="${escapeHtml(o)}"${o === (value ?? '') ? ' selected' : ''}>${escapeHtml(o || 'any')}</option>`,
    )
    .join('');
  return `<label>${escapeHtml(label)}<select name="${name}">${opts}</select></label>`;
}

/** A secret the API shows once, with the warning that it will not be shown again. */
export const shownOnce = (label: string, secret: string) =>
  `<div class="notice" role="status"><p><strong>${escapeHtml(label)}</strong> (shown only now; copy it, it cannot be shown again):</p>
<p><code class="secret">${escapeHtml(secret)}</code></p></div>`;

/** A one-line notice after an action (from the redirect's `done` parameter, a fixed vocabulary). */
export function doneNotice(done: unknown): string {
  const texts: Record<string, string> = {
    revoke: 'The credential was revoked.',
    suspend: 'The credential was suspended.',
    unsuspend: 'The suspension was lifted.',
    withdraw: 'The issuance was withdrawn.',
    resend: 'The offer was mailed again with a new activation code; the old code no longer works.',
    replay: 'The delivery was queued again; its new tries appear below.',
    'token-revoked': 'The token was revoked.',
    'anchor-added': 'The trust anchor was added.',
    'anchor-known': 'That certificate was a trust anchor already.',
    'anchor-removed': 'The trust anchor was removed.',
    'rp-removed': 'The relying party was removed.',
    'issuer-trusted': 'The issuer is trusted.',
    'issuer-trusted-unresolved':
      'The issuer is trusted, but its keys could not be read from its metadata now.',
    'issuer-removed': 'The issuer is no longer trusted.',
    'source-added': 'The trust source was added and fetched; its status is below.',
    'source-refreshed': 'The trust source was fetched again; its status is below.',
    'source-removed': 'The trust source was removed.',
    'chain-imported': 'The certificate chain was imported; it is the key’s x5c now.',
  };
  const text = typeof done === 'string' ? texts[done] : undefined;
  return text ? `<p class="notice" role="status">${text}</p>` : '';
}
