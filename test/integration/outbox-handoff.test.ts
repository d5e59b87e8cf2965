import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queueMail } from '../../server/mail/queue-mail.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

/**
 * A job handed to BullMQ and then lost by Redis (restarted without its data) is noticed within
 * seconds: the relay looks again at every handed-over row after a short lease and hands over again
 * what no longer exists, instead of waiting out a ten-minute lease.
 */
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let api: TestService;
let worker: TestService | undefined;
let redis: Redis;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  api = await startTestService({ env: { SMTP_URL: smtp.url, ROLE: 'api' } });
  redis = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  await worker?.stop();
  await api.stop();
  await smtp.close();
  redis.disconnect();
});

const queueKeys = () => redis.keys(`${api.env.QUEUE_PREFIX}:*`);

describe('a lost queue hand-off', () => {
  it('is handed over again within seconds of Redis losing the job', async () => {
    const to = 'lost@example.test';
    const id = await api.service.context.orm.em
      .fork()
      .transactional((tx) =>
        queueMail(tx, { tenantId: null, template: 'notice', to, params: { subject: 'S', message: 'M' } }),
      );
    // The api node relays it into the queue; no worker consumes it yet.
    await until(
      async () => (await redis.exists(`${api.env.QUEUE_PREFIX}:mail:${await jobIdOf(id)}`)) === 1,
      Boolean,
    );
    const lostAt = Date.now();
    const keys = await queueKeys();
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);

    worker = await startTestService({ db: api.db, env: { ...api.env, ROLE: 'worker', PORT: '0' } });
    const arrived = await until(
      async () => smtp.messages.filter((m) => m.to.includes(to)).length,
      (n) => n > 0,
      30_000,
    );
    expect(arrived).toBe(1);
    expect(Date.now() - lostAt).toBeLessThan(20_000);
  });
});

/** The outbox row (and BullMQ job id) of a mail. */
async function jobIdOf(mailId: string): Promise<string> {
  const [row] = await api.service.context.orm.em
    .fork()
    .execute<{ id: string }[]>(`select id from outbox_message where payload->>'mailId' = ?`, [mailId]);
  return row?.id ?? '';
}
