import type { Request, Response } from 'express';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase } from '../console-layout.js';
import { answered } from './api-refusals.js';
import { queryText, UUID } from './view-helpers.js';

const CREDENTIAL_TEXTS = {
  notFound: 'There is no such credential or issuance.',
  conflict: 'The credential cannot be changed that way in its present status.',
};

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
  return answered(req, res, answer.status, back, action, CREDENTIAL_TEXTS);
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
    CREDENTIAL_TEXTS,
  );
}

/** POST …/issuances/:id/resend: the offer mailed again with a new tx_code. */
export async function resendAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const id = String(req.params.id).slice(0, 200);
  const answer = await c.tenant.api.resendIssuanceMail({ params: { id } });
  return answered(
    req,
    res,
    answer.status,
    `${consoleBase(c.tenantId)}/issuances/${encodeURIComponent(id)}`,
    'resend',
    {
      notFound: 'There is no such issuance.',
      conflict: 'Only an open offer no wallet has redeemed, with an e-mail address, can be mailed again.',
    },
  );
}
