import type { Request, Response } from 'express';
import { findSession } from './ephemeral-sessions.js';
import { statusOf } from './presentation-session.entity.js';
import type { SessionEvent } from './session-events.js';
import { sessionEvent } from './session-result.js';
import type { VerifierServices } from './verifier-services.js';

const HEARTBEAT_MS = 15_000;
const FINAL = new Set(['verified', 'failed', 'expired']);

/**
 * `GET /api/login/events?state=<session_id>`: server-sent events of a session's status, for the page
 * that shows the QR code. Only the status travels (never claims); the stream sends the current
 * status at once, heartbeats while it waits, and closes on a final status or at expiry.
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
    req.em.clear();
    const latest = (await find()) ?? session;
    const current = statusOf(latest);
    send(sessionEvent(latest, current));
    if (FINAL.has(current)) return close();
    heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    expiry = setTimeout(
      () => {
        send(sessionEvent(session, 'expired'));
        close();
      },
      Math.max(0, session.expiresAt.getTime() - Date.now()),
    );
  };
