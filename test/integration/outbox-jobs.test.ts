import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailMessage } from '../../server/mail/mail-message.entity.js';
import { queueMail } from '../../server/mail/queue-mail.js';
import { OutboxMessage } from '../../server/outbox/outbox-message.entity.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
});
afterAll(() => smtp.close());

const notice = (to: string) => ({
  tenantId: null,
  template: 'notice',
  to,
  params: { subject: 'Hello <there>', message: 'A message & more' },
});

const queue = (t: TestService, mail: Parameters<typeof queueMail>[1]) =>
  t.service.context.orm.em.fork().transactional((tx) => queueMail(tx, mail));

const outboxRow = (t: TestService, id: string) =>
  t.service.context.orm.em.fork().findOneOrFail(OutboxMessage, { payload: { mailId: id } });

describe.each([
  ['BullMQ', true],
  ['in-process runner', false],
])('outbox and mail worker (%s)', (_name, redis) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ redis, env: { SMTP_URL: smtp.url, JOB_ATTEMPTS: '2' } });
  });
  afterAll(() => t.stop());

  it('sends a queued message over SMTP with text and HTML bodies, then forgets its parameters', async () => {
    const to = `person-${redis}@example.test`;
    const id = await queue(t, notice(to));
    await until(
      async () => smtp.messages.filter((m) => m.to.includes(to)).length,
      (n) => n > 0,
    );
    const mail = smtp.messages.find((m) => m.to.includes(to));
    expect(mail?.raw).toContain('Subject: Hello <there>');
    expect(mail?.raw).toContain('text/plain');
    expect(mail?.raw).toContain('text/html');
    expect(mail?.raw).toContain('&lt;there&gt;</title>'); // escaped in HTML
    expect(mail?.raw).toContain(`Message-ID: <${id}@credservice>`);
    const stored = await until(
      () => t.service.context.orm.em.fork().findOneOrFail(MailMessage, { id }),
      (m) => m.params === null,
    );
    expect(stored.sentAt).toBeInstanceOf(Date);
    expect(
      (
        await until(
          () => outboxRow(t, id),
          (r) => r.status === 'done',
        )
      ).status,
    ).toBe('done');
  });

  it('retries a failing job and dead-letters it after the last try', async () => {
    const id = await queue(t, { ...notice('nobody@example.test'), template: 'no-such-template' });
    const row = await until(
      () => outboxRow(t, id),
      (r) => r.status === 'dead',
    );
    expect(row).toMatchObject({ status: 'dead', attempts: 2 });
    expect(row.lastError).toContain('unknown mail template');
  });

  it('leaves nothing behind when the recording transaction rolls back', async () => {
    const em = t.service.context.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await queueMail(tx, notice('rollback@example.test'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await em.count(MailMessage, { recipient: 'rollback@example.test' })).toBe(0);
    expect(await em.count(OutboxMessage, {})).toBe(await em.count(MailMessage, {}));
  });
});

describe.each([
  ['BullMQ', true],
  ['in-process runner', false],
])('a job recorded while no worker runs (%s)', (_name, redis) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('is delivered exactly once when a worker starts, after the api node that recorded it stopped', async () => {
    const prefix = `restart-${redis}-${Date.now()}`;
    const env = { SMTP_URL: smtp.url, QUEUE_PREFIX: prefix };
    const api = await startTestService({ db, redis, env: { ...env, ROLE: 'api' } });
    const to = `restart-${redis}@example.test`;
    const id = await queue(api, notice(to));
    await new Promise((r) => setTimeout(r, 800));
    expect(smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(0);
    expect((await outboxRow(api, id)).status).not.toBe('done');
    await api.stop();

    const worker = await startTestService({ db, redis, env: { ...env, ROLE: 'worker' } });
    try {
      await until(
        async () => smtp.messages.filter((m) => m.to.includes(to)).length,
        (n) => n > 0,
      );
      expect(
        (
          await until(
            () => outboxRow(worker, id),
            (r) => r.status === 'done',
          )
        ).status,
      ).toBe('done');
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });
});
