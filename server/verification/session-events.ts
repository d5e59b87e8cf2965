import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { SessionStatus } from './presentation-session.entity.js';

export interface SessionEvent {
  session_id: string;
  status: SessionStatus;
  /** The verifier profile of the session (`haip-1.0`), when it has one. */
  profile?: string;
  /** Once verified: how each credential's issuer was trusted (no claims). */
  credentials?: { id: string; trust: Record<string, string | undefined> & { method: string } }[];
}

/**
 * Status changes of presentation sessions, to whoever watches them (SSE). With Redis they cross
 * nodes: the wallet's response may land on one node while the browser listens on another.
 */
export interface SessionEvents {
  publish(event: SessionEvent): Promise<void>;
  /** Resolves once events published from now on will reach `listener`; returns the unsubscribe. */
  subscribe(sessionId: string, listener: (event: SessionEvent) => void): Promise<() => void>;
  close(): Promise<void>;
}

const channel = (sessionId: string) => `credservice:session:${sessionId}`;

export function localSessionEvents(): SessionEvents {
  const emitter = new EventEmitter().setMaxListeners(0);
  return {
    publish: async (e) => void emitter.emit(e.session_id, e),
    async subscribe(sessionId, listener) {
      emitter.on(sessionId, listener);
      return () => emitter.off(sessionId, listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}

/** Redis pub/sub: one subscriber connection per node, channels subscribed while someone listens. */
export function redisSessionEvents(redis: Redis): SessionEvents {
  const local = localSessionEvents();
  const subscriber = redis.duplicate();
  // Outages are reported by the main connection; this one just reconnects.
  subscriber.on('error', () => undefined);
  const counts = new Map<string, number>();
  subscriber.on('message', (ch: string, message: string) => {
    const event = JSON.parse(message) as SessionEvent;
    if (ch === channel(event.session_id)) void local.publish(event);
  });
  return {
    publish: async (e) => void (await redis.publish(channel(e.session_id), JSON.stringify(e))),
    async subscribe(sessionId, listener) {
      const n = (counts.get(sessionId) ?? 0) + 1;
      counts.set(sessionId, n);
      const off = await local.subscribe(sessionId, listener);
      // Redis confirms SUBSCRIBE before it delivers anything published afterwards.
      await subscriber.subscribe(channel(sessionId));
      return () => {
        off();
        const left = (counts.get(sessionId) ?? 1) - 1;
        if (left > 0) counts.set(sessionId, left);
        else {
          counts.delete(sessionId);
          void subscriber.unsubscribe(channel(sessionId));
        }
      };
    },
    close: async () => {
      await local.close();
      subscriber.disconnect();
    },
  };
}
