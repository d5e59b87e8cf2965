import type { Request, Response } from 'express';
import { consolePage } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';

const NOTES: Record<string, string> = {
  ended: 'Your console session has ended. Sign in again.',
  signed_out: 'You are signed out.',
};

/** GET /console: where an administrator names their organisation and signs in with their wallet. */
export function landingPage(req: Request, res: Response, session: ConsoleSession | null) {
  if (session?.tenantId)
    return res.redirect(303, `/console/t/${encodeURIComponent(session.tenantId)}/issuances`);
  if (session?.role === 'operator') return res.redirect(303, '/console/operator/tenants');
  const key = Object.keys(NOTES).find((k) => req.query[k] !== undefined);
  const note = key ? `<p class="notice" role="status">${NOTES[key]}</p>` : '';
  const form = `${note}<form class="panel" method="get" action="/console/sign-in">
<p>Sign in with the employee credential in your wallet. Your organisation decides which power lets you in.</p>
<label for="tenant">Organisation (tenant id)</label>
<input id="tenant" name="tenant" required pattern="[a-z0-9][a-z0-9\\-]{0,62}" autocomplete="organization">
<button type="submit">Sign in with your wallet</button></form>
<p>Operators sign in with the link <code>npm run cli -- console link</code> prints.</p>`;
  res
    .type('html')
    .send(
      consolePage(
        { tenantId: null, tenantName: 'Credential Service', logoUri: null, session: null, path: '' },
        'Console sign-in',
        form,
      ),
    );
}
