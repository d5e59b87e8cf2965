import type { Request, Response } from 'express';
import { auditConsole } from '../console-audit.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';

/** What a refusal page says about the thing asked for (404, 409); the rest is the same everywhere. */
export interface RefusalTexts {
  notFound: string;
  conflict?: string;
}

/**
 * Returns when the API accepted the change the console asked for, else throws the page the person
 * sees. A 403 is the session's read-only token refusing: nothing changed, and the attempt is
 * recorded as `console.request_refused` (`read_only_role`) under the person's name.
 */
export async function requireAccepted(
  req: Request,
  res: Response,
  status: number,
  accepted: readonly number[],
  texts: RefusalTexts,
): Promise<void> {
  if (accepted.includes(status)) return;
  const c = consoleOf(res);
  if (status === 403) {
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
  if (status === 404) throw new ConsolePageError(404, 'Not found', texts.notFound);
  if (status === 409)
    throw new ConsolePageError(409, 'Not possible', texts.conflict ?? 'That is not possible now.');
  throw new ConsolePageError(400, 'Not accepted', 'The change was not accepted; nothing was changed.');
}

/** The API's answer to a change, as a redirect back to the page with a `done` notice. */
export async function answered(
  req: Request,
  res: Response,
  status: number,
  back: string,
  done: string,
  texts: RefusalTexts,
  accepted: readonly number[] = [200],
) {
  await requireAccepted(req, res, status, accepted, texts);
  res.redirect(303, `${back}?done=${done}`);
}

/**
 * Returns when the API answered a read the console needs (200), else throws the 502 page that says
 * what could not be read (`what`, e.g. "The tokens").
 */
export function requireRead<A extends { status: number }>(
  answer: A,
  what: string,
): asserts answer is Extract<A, { status: 200 }> {
  if (answer.status !== 200) throw new ConsolePageError(502, 'Not available', `${what} could not be read.`);
}
