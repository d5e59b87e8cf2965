import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  /** Also the Message-ID, so a message sent twice after a crash is recognisably the same one. */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

const envelope = (m: OutgoingMail) => ({
  messageId: `<${m.id}@credservice>`,
  from: m.from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  html: m.html,
});

/** Sends through the SMTP server at `url` (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(url: string): MailTransport {
  // Pooled: a burst of offers reuses a few SMTP connections instead of one per message.
  const transport = nodemailer.createTransport({ url, pool: true, maxConnections: 5 } as Parameters<
    typeof nodemailer.createTransport
  >[0]);
  return {
    description: `SMTP ${new URL(url).host}`,
    async send(m) {
      await transport.sendMail(envelope(m));
    },
    close: () => transport.close(),
  };
}

/** The embedded default: each message becomes `<dir>/<id>.eml`, readable by any mail client. */
export function fileTransport(dir: string): MailTransport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `files in ${dir}`,
    async send(m) {
      const info = await transport.sendMail(envelope(m));
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, `${m.id}.eml`), info.message as Buffer);
    },
    close: () => transport.close(),
  };
}
