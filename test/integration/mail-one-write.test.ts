import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queueMail } from '../../server/mail/queue-mail.js';
import type { Sql } from '../../server/persistence/sql.js';
import { bullMqDispatcher } from '../../workers/bullmq-dispatcher.js';
import { inProcessDispatcher } from '../../workers/in-process-dispatcher.js';
import { smtpTransport } from '../../workers/mail/mail-transport.js';
import { sendMailProcessor } from '../../workers/mail/send-mail.processor.js';
import { processors } from '../../workers/processors.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

/**
 * The mail worker's cost per message: one read before sending and one write after, which marks the
 * message sent and its outbox row done together. The service here only records (ROLE api, no Redis):
 * the processor and the dispatchers below are the only ones that send.
 */
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let t: TestService;
const transport = () => smtpTransport(smtp.url);
let mail: ReturnType<typeof transport>;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestService({ redis: false, env: { SMTP_URL: smtp.url, ROLE: 'api' } });
  mail = transport();
});
afterAll(async () => {
  mail.close();
  await t.stop();
  await smtp.close();
});

/** The service's own statements, with the text of each one kept. */
const recording = () => {
  const statements: string[] = [];
  const sql: Sql = {
    query: (text, values) => {
      statements.push(text.trimStart());
      return t.service.context.sql.query(text, values);
    },
  };
  return { sql, statements };
};
const jobContext = (sql: Sql) => {
  const { config, logger, signer, orm } = t.service.context;
  return { config, logger, signer, mail, sql, em: orm.em.fork() };
};
const rows = async (mailId: string) => {
  const [row] = await t.service.context.sql.query<{
    outbox: string;
    status: string;
    sent_at: string | null;
    params: unknown;
  }>(
    `select o.id as outbox, o.status, m.sent_at, m.params from mail_message m
     join outbox_message o on o.payload->>'mailId' = m.id::text where m.id = $1`,
    [mailId],
  );
  if (!row) throw new Error(`no mail ${mailId}`);
  return row;
};
const caught = (to: string) => smtp.messages.filter((m) => m.to.includes(to)).length;

describe('the mail worker', () => {
  const to = `one-write-${randomBytes(3).toString('hex')}@example.test`;
  let mailId: string;

  it('reads a message once, then marks it sent and its outbox row done in one write', async () => {
    mailId = await t.service.context.orm.em
      .fork()
      .transactional((tx) =>
        queueMail(tx, { tenantId: null, template: 'notice', to, params: { subject: 'S', message: 'M' } }),
      );
    const { sql, statements } = recording();
    const complete = await sendMailProcessor({ mailId }, jobContext(sql));
    expect(caught(to)).toBe(1);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^select /);
    if (!complete) throw new Error('a sent message has a completion');
    const { outbox } = await rows(mailId);
    await complete(outbox);
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(/^with /);
    expect(await rows(mailId)).toMatchObject({ status: 'done', sent_at: expect.any(String), params: null });
  });

  it.each([
    ['in-process', false],
    ['BullMQ', true],
  ])(
    'a redelivered job of a sent message sends nothing and still marks its row done (%s)',
    async (_, bull) => {
      const { outbox, sent_at } = await rows(mailId);
      await t.service.context.sql.query(
        "update outbox_message set status = 'pending', finished_at = null, available_at = now() where id = $1",
        [outbox],
      );
      const { orm, config, logger, signer, sql } = t.service.context;
      const options = { orm, processors, context: { config, logger, signer, mail, sql } };
      const timing = { attempts: 2, backoffMs: 100, pollMs: 100 };
      const redis = bull ? new Redis(inject('redisUrl'), { maxRetriesPerRequest: null }) : undefined;
      const prefix = `one-write-${randomBytes(4).toString('hex')}`;
      const jobs = redis
        ? bullMqDispatcher({ ...options, ...timing, redis, prefix, consume: true })
        : inProcessDispatcher({ ...options, ...timing, execute: true });
      await jobs.start();
      try {
        const done = await until(
          () => rows(mailId),
          (r) => r.status === 'done',
        );
        expect(done.status).toBe('done');
      } finally {
        await jobs.stop();
        redis?.disconnect();
      }
      expect(caught(to)).toBe(1);
      expect((await rows(mailId)).sent_at).toEqual(sent_at);
    },
  );
});
