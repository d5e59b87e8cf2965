import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  raw: string;
  /** The SMTP connection it came on, and when it was accepted (for the fault tests). */
  session: string;
  at: number;
}

/** A real SMTP server in the test process that keeps what it receives. */
export async function startSmtpCatcher() {
  const messages: CaughtMail[] = [];
  const waiters: (() => void)[] = [];
  const open = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(session, callback) {
      open.add(session.id);
      callback();
    },
    onClose(session) {
      open.delete(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          session: session.id,
          at: Date.now(),
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  // A client that dies mid-conversation (the fault tests kill the worker) resets its connection.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Ids of the SMTP connections open right now. */
    openSessions: () => new Set(open),
    /** Resolves when at least `count` messages have arrived, or rejects after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 10_000): Promise<CaughtMail[]> {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mail(s), got ${messages.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return messages;
    },
    /** Resolves with the first message that `match` accepts, waiting for it to arrive. */
    async waitForMail(match: (m: CaughtMail) => boolean, timeoutMs = 10_000): Promise<CaughtMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('the expected mail did not arrive');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
