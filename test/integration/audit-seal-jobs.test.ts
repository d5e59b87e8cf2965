import { describe, expect, it } from 'vitest';
import { recordEffect } from '../../server/outbox/outbox.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { sleep, until } from '../support/until.js';

const verify = async (t: TestService, id: string) => {
  const res = await t.admin.verifyAuditChain({ params: { id } });
  if (res.status !== 200) throw new Error(`verification answered ${res.status}`);
  return res.body;
};

async function withService(opts: { redis: boolean; timer: boolean }, run: (t: TestService) => Promise<void>) {
  const t = await startTestService({
    redis: opts.redis,
    env: opts.timer ? {} : { AUDIT_SEAL_INTERVAL_MS: '0' },
  });
  try {
    await run(t);
  } finally {
    await t.stop();
  }
}

describe.each([
  { mode: 'BullMQ', redis: true },
  { mode: 'in-process', redis: false },
])('audit sealing with jobs run by $mode', ({ redis }) => {
  it('seals on the worker timer, without being asked', () =>
    withService({ redis, timer: true }, async (t) => {
      const body = acmeTenant();
      await t.admin.createTenant({ body });
      const sealed = await until(
        () => verify(t, body.id),
        (v) => v.unsealed === 0,
      );
      expect(sealed).toMatchObject({
        valid: true,
        checked: 3,
        unsealed: 0,
        checkpoint: { seq: 3, valid: true },
      });
    }));

  it('seals when an audit-seal job is recorded in the outbox', () =>
    withService({ redis, timer: false }, async (t) => {
      const body = acmeTenant();
      await t.admin.createTenant({ body });
      // No timer here: the events wait until something asks.
      await sleep(500);
      expect(await verify(t, body.id)).toMatchObject({ checked: 0, unsealed: 3, checkpoint: null });
      await t.service.context.orm.em
        .fork()
        .transactional((tx) => recordEffect(tx, 'audit-seal', { tenantId: body.id }));
      const sealed = await until(
        () => verify(t, body.id),
        (v) => v.unsealed === 0,
      );
      expect(sealed).toMatchObject({ valid: true, checked: 3, checkpoint: { seq: 3, valid: true } });
    }));
});
