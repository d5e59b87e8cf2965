import type { Request, Response } from 'express';
import { findSession } from './ephemeral-sessions.js';
import { type PresentationSession, statusOf } from './presentation-session.entity.js';
import type { SessionEvent } from './session-events.js';
import { sessionEvent } from './session-result.js';
import type { VerifierServices } from './verifier-services.js';

const HEARTBEAT_MS = 15_000;
const FINAL = new Set(['verified', 'failed', 'expired']);

/** When the status of an unfinished session changes by itself: at its expiry, or its redirect's deadline. */
const deadlineOf = (s: PresentationSession) =>
  s.status === 'awaiting_redirect' && s.responseCodeExpiresAt
    ? new Date(s.responseCodeExpiresAt)
    : s.expiresAt;

/**
 * `GET /api/login/events?state=<session_id>`: server-sent events of a session's status, for the page
 * that shows the QR code. Only the status travels (never claims); the stream sends the current
 * status at once, heartbeats while it waits, and closes on a final status. A same-device answer is
 * `awaiting_redirect` until its response code is redeemed (then `verified`) or its deadline passes
 * (then `failed`); at a deadline the stream reads the session again rather than assume the outcome.
 */
export const loginEventsRoute =
  (v: Pick<VerifierServices, 'events' | 'ephemeral'>) => async (req: Request, res: Response) => {
    const { events } = v;
    const sessionId = typeof req.query.state === 'string' ? req.query.state : '';
    const find = async () => (await findSession(req.em, v.ephemeral, { id: sessionId }))?.session;
    const session = sessionId ? await find() : undefined;
    if (!session) {
      res.status(404).json({ error: 'not_found', error_description: 'no such session' });
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const send = (e: SessionEvent) => res.write(`event: status\ndata: ${JSON.stringify(e)}\n\n`);
    let closed = false;
    let heartbeat: NodeJS.Timeout | undefined;
    let expiry: NodeJS.Timeout | undefined;
    let unsubscribe = () => {};
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
      res.end();
    };
    req.on('close', close);
    // Subscribe first, then read the status: a change in between is then seen one way or the other.
    unsubscribe = await events.subscribe(session.id, (e) => {
      send(e);
      if (FINAL.has(e.status)) close();
    });
    if (closed) return unsubscribe();
    const reread = async () => {
      req.em.clear();
      return (await find()) ?? session;
    };
    const latest = await reread();
    const current = statusOf(latest);
    send(sessionEvent(latest, current));
    if (FINAL.has(current)) return close();
    heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const watch = (s: PresentationSession) => {
      expiry = setTimeout(
        () => {
          void reread()
            .then((now) => {
              if (closed) return;
              const status = statusOf(now);
              if (!FINAL.has(status)) return watch(now);
              send(sessionEvent(now, status));
              close();
            })
            .catch(close);
        },
        // A deadline just passed is seen as such on the next read: a little later, never early.
        Math.max(0, deadlineOf(s).getTime() - Date.now()) + 50,
      );
    };
    watch(latest);
  };
