import type { Request, Response } from 'express';
import { auditConsole } from '../console-audit.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase } from '../console-layout.js';
import { queryText } from './view-helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The API's answer to a change the console asked for, as the page the person sees next. */
async function answered(req: Request, res: Response, status: number, back: string, done: string) {
  const c = consoleOf(res);
  if (status === 200) return res.redirect(303, `${back}?done=${done}`);
  if (status === 403) {
    // The session's token is read-only: the API refused and changed nothing; the attempt is recorded.
    await auditConsole(req.em, c.tenantId, 'console.request_refused', c.session, {
      reason: 'read_only_role',
      path: req.path.slice(0, 200),
    });
    throw new ConsolePageError(
      403,
      'Not allowed',
      'Your role may look at everything here but change nothing.',
    );
  }
  if (status === 404)
    throw new ConsolePageError(404, 'Not found', 'There is no such credential or issuance.');
  if (status === 409)
    throw new ConsolePageError(
      409,
      'Not possible',
      `The credential cannot be changed that way in its present status.`,
    );
  throw new ConsolePageError(400, 'Not accepted', 'The change was not accepted; nothing was changed.');
}

/** POST …/credentials/:id/(revoke|suspend|unsuspend), with the reason, through the integrator API. */
export async function credentialAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const action = String(req.params.action);
  const id = String(req.params.id);
  if (!['revoke', 'suspend', 'unsuspend'].includes(action) || !UUID.test(id))
    throw new ConsolePageError(404, 'Not found', 'There is no such action.');
  const body = req.body as { reason?: unknown; issuance?: unknown };
  const reason = queryText(body.reason, 500);
  const issuance = queryText(body.issuance, 200);
  const call = { params: { id }, body: reason ? { reason } : {} };
  const api = c.tenant.api;
  const answer =
    action === 'revoke'
      ? await api.revokeCredential(call)
      : action === 'suspend'
        ? await api.suspendCredential(call)
        : await api.unsuspendCredential(call);
  const base = consoleBase(c.tenantId);
  const back = issuance ? `${base}/issuances/${encodeURIComponent(issuance)}` : `${base}/issuances`;
  return answered(req, res, answer.status, back, action);
}

/** POST …/issuances/:id/withdraw, with the reason. */
export async function withdrawAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const id = String(req.params.id).slice(0, 200);
  const reason = queryText((req.body as { reason?: unknown }).reason, 500);
  const answer = await c.tenant.api.withdrawIssuance({ params: { id }, body: reason ? { reason } : {} });
  return answered(
    req,
    res,
    answer.status,
    `${consoleBase(c.tenantId)}/issuances/${encodeURIComponent(id)}`,
    'withdraw',
  );
}
