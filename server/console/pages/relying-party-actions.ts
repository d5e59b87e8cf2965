import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { answered, requireAccepted } from './api-refusals.js';
import { consoleClientId } from './relying-parties-page.js';
import { shownOnce } from './view-helpers.js';

const RP_TEXTS = { notFound: 'There is no such relying party.' };

/** The claims mapping field as JSON, or the page that says it is not. */
function claimsMappingOf(text: string): Record<string, never> {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, never>;
  } catch {}
  throw new ConsolePageError(
    400,
    'Not accepted',
    'The claims mapping must be a JSON object; nothing was registered.',
  );
}

/** POST …/relying-parties: registered through the tenant's API; the client secret is shown once. */
export async function registerRelyingPartyAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const form = req.body as Record<string, unknown>;
  const text = (name: string) => String(form[name] ?? '').trim();
  const method =
    text('token_endpoint_auth_method') === 'client_secret_post'
      ? 'client_secret_post'
      : 'client_secret_basic';
  const answer = await c.tenant.api.createTenantOidcClient({
    body: {
      client_name: text('client_name'),
      redirect_uris: text('redirect_uris').split(/\s+/).filter(Boolean),
      token_endpoint_auth_method: method,
      credential_configuration_id: text('credential_configuration_id'),
      claims_mapping: claimsMappingOf(text('claims_mapping')),
    },
  });
  if (answer.status === 400)
    throw new ConsolePageError(
      400,
      'Not accepted',
      `The relying party was refused: ${answer.body.detail ?? ''}`,
    );
  await requireAccepted(req, res, answer.status, [201], RP_TEXTS);
  if (answer.status !== 201) return;
  const path = `${consoleBase(c.tenantId)}/relying-parties`;
  const rp = answer.body;
  const body = `${rp.client_secret ? shownOnce(`The client secret of ${rp.client_name ?? rp.client_id}`, rp.client_secret) : ''}
<dl><dt>Client id</dt><dd class="mono" id="client-id">${escapeHtml(rp.client_id)}</dd><dt>Redirect URIs</dt><dd>${rp.redirect_uris.map(escapeHtml).join('<br>')}</dd></dl>
<p><a href="${escapeHtml(path)}">Back to the relying parties</a></p>`;
  res.type('html').send(consolePage({ ...c, path }, 'Relying party registered', body));
}

/** POST …/relying-parties/:clientId/remove: never the console's own sign-in client. */
export async function removeRelyingPartyAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const clientId = String(req.params.clientId);
  if (clientId === (await consoleClientId(req, c.tenantId)))
    throw new ConsolePageError(409, 'Not possible', 'This is the console’s own sign-in client; it stays.');
  const answer = await c.tenant.api.deleteTenantOidcClient({ params: { clientId: clientId.slice(0, 200) } });
  return answered(
    req,
    res,
    answer.status,
    `${consoleBase(c.tenantId)}/relying-parties`,
    'rp-removed',
    RP_TEXTS,
    [204],
  );
}
