import fs from 'node:fs/promises';
import path from 'node:path';
import type { startSmtpCatcher } from '../smtp-catcher.js';

/** Where the mission reads the mail the service sent: a real SMTP server, or the .eml files. */
export interface Mailbox {
  /**
   * The decoded text of the first message to `to` whose text matches `pattern` and is none of
   * `except` (messages already read: the same template can come twice).
   */
  find(to: string, pattern: RegExp, timeoutMs?: number, except?: string[]): Promise<string>;
}

/** Quoted-printable soft breaks and escapes, as nodemailer writes long lines and non-ASCII. */
const decode = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function poll(
  read: () => Promise<string[]>,
  to: string,
  pattern: RegExp,
  timeoutMs: number,
  except: string[] = [],
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await read())
      .map(decode)
      .find((m) => m.includes(to) && pattern.test(m) && !except.includes(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const smtpMailbox = (smtp: Awaited<ReturnType<typeof startSmtpCatcher>>): Mailbox => ({
  find: (to, pattern, timeoutMs = 15_000, except = []) =>
    poll(async () => smtp.messages.map((m) => m.raw), to, pattern, timeoutMs, except),
});

/** The embedded default's mail: one `<id>.eml` per message under `DATA_DIR/outbox`. */
export const emlMailbox = (dir: string): Mailbox => ({
  find: (to, pattern, timeoutMs = 15_000, except = []) =>
    poll(
      async () => {
        const names = await fs.readdir(dir).catch(() => [] as string[]);
        return Promise.all(names.map((n) => fs.readFile(path.join(dir, n), 'utf8')));
      },
      to,
      pattern,
      timeoutMs,
      except,
    ),
});
