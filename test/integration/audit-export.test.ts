import fs from 'node:fs/promises';
import path from 'node:path';
import { compactVerify, createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directorySink } from '../../workers/audit-export/audit-sink.js';
import { exportAuditEvents } from '../../workers/audit-export/export-audit-events.js';
import { untilAuditSealed } from '../support/audit-sealed.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

let t: TestService;
let dir: string;
beforeAll(async () => {
  t = await startTestService({ env: { AUDIT_EXPORT_INTERVAL_MS: '0' } });
  dir = path.join(t.env.DATA_DIR ?? '', 'audit-export');
});
afterAll(() => t.stop());

interface Line {
  type?: 'checkpoint';
  seq: number;
  hash: string;
  jws?: string;
}
const exportedLines = async (tenantId: string) => {
  const text = await fs.readFile(path.join(dir, `${tenantId}.ndjson`), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
};
/** The exported events, without the checkpoint lines between them. */
const exported = async (tenantId: string) => (await exportedLines(tenantId)).filter((l) => !l.type);

async function tenantWithEvents(extra: number) {
  const body = acmeTenant();
  await t.admin.createTenant({ body });
  for (let i = 0; i < extra; i++)
    await t.admin.updateTenant({ params: { id: body.id }, body: { name: `ACME ${i}` } });
  // Only sealed events are exported; the worker seals them within about a second.
  await untilAuditSealed(t.admin, body.id);
  return body.id;
}

describe('audit export', () => {
  it('exports on demand through the worker, as NDJSON with the hash chain, incrementally', async () => {
    const id = await tenantWithEvents(2);
    expect((await t.admin.requestAuditExport({ params: { id } })).status).toBe(202);
    const first = await until(
      () => exported(id),
      (lines) => lines.length === 5,
    );
    expect(first.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    await t.admin.updateTenant({ params: { id }, body: { name: 'ACME again' } });
    await t.admin.requestAuditExport({ params: { id } });
    const second = await until(
      () => exported(id),
      (lines) => lines.length === 6,
    );
    expect(second.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // Each export ends with the signed chain head, which has the seq and hash of the event before it.
    const lines = await exportedLines(id);
    expect(lines.map((l) => l.type ?? l.seq)).toEqual([1, 2, 3, 4, 5, 'checkpoint', 6, 'checkpoint']);
    const checkpoint = lines.at(-1) as Line;
    expect(checkpoint).toMatchObject({ seq: 6, hash: second.at(-1)?.hash });
    const keys = createLocalJWKSet({ keys: await t.service.context.signer.publicJwks('audit') });
    const signed = JSON.parse(
      new TextDecoder().decode((await compactVerify(checkpoint.jws ?? '', keys)).payload),
    );
    expect(signed).toMatchObject({ tenant: id, seq: 6, hash: checkpoint.hash });
    const state = await t.admin.getAuditExport({ params: { id } });
    expect(state).toMatchObject({ status: 200, body: { last_seq: 6 } });
  });

  it('after a crash mid-write, resumes after the last complete line: nothing lost, nothing twice', async () => {
    const id = await tenantWithEvents(3);
    const sink = directorySink(dir);
    const em = t.service.context.orm.em.fork();
    await exportAuditEvents(em, sink, id);
    // A crash while appending: half a line on disk, and more events since.
    await fs.appendFile(path.join(dir, `${id}.ndjson`), '{"id":"half-written","seq":');
    await t.admin.updateTenant({ params: { id }, body: { name: 'After the crash' } });
    await untilAuditSealed(t.admin, id);
    await exportAuditEvents(t.service.context.orm.em.fork(), sink, id);
    await exportAuditEvents(t.service.context.orm.em.fork(), sink, id);
    const lines = await exported(id);
    expect(lines.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('lets only one of two concurrent exports of a tenant write', async () => {
    const id = await tenantWithEvents(5);
    const sink = directorySink(dir);
    const orm = t.service.context.orm;
    const counts = await Promise.all([
      exportAuditEvents(orm.em.fork(), sink, id),
      exportAuditEvents(orm.em.fork(), sink, id),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    expect((await exported(id)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
