import fs from 'node:fs/promises';
import path from 'node:path';
import { guardedFetch } from '../../server/outbound/guarded-fetch.js';
import type { OutboundPolicy } from '../../server/outbound/outbound-policy.js';

/**
 * Where exported audit events go. The sink itself says how far it got (`lastSeq`), so an export that
 * crashed anywhere resumes exactly after the last event the sink holds: nothing lost, nothing twice.
 */
export interface AuditSink {
  readonly description: string;
  lastSeq(tenantId: string): Promise<number>;
  /** Appends NDJSON lines of events `fromSeq`… in order. */
  append(tenantId: string, fromSeq: number, lines: string[]): Promise<void>;
}

/**
 * One NDJSON file per tenant. A crash mid-append can leave a partial last line; it is cut off before
 * the next append, and the last complete line's `seq` is where the export resumes.
 */
export function directorySink(dir: string): AuditSink {
  const file = (tenantId: string) => path.join(dir, `${tenantId}.ndjson`);
  async function completeContent(tenantId: string): Promise<{ text: string; size: number }> {
    const text = await fs.readFile(file(tenantId), 'utf8').catch(() => '');
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) await fs.truncate(file(tenantId), Buffer.byteLength(text.slice(0, end)));
    return { text: text.slice(0, end), size: end };
  }
  return {
    description: `files in ${dir}`,
    async lastSeq(tenantId) {
      const { text } = await completeContent(tenantId);
      const last = text.trimEnd().split('\n').at(-1);
      return last ? (JSON.parse(last) as { seq: number }).seq : 0;
    },
    async append(tenantId, _fromSeq, lines) {
      await fs.mkdir(dir, { recursive: true });
      const handle = await fs.open(file(tenantId), 'a');
      try {
        await handle.write(lines.map((l) => `${l}\n`).join(''));
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * POSTs each batch as application/x-ndjson with an `Idempotency-Key` of tenant and first seq; the
 * receiver drops a batch it has seen. The position is kept in `audit_export_cursor`, advanced only
 * after a 2xx, so a crash re-sends (with the same key) rather than skips.
 */
export function httpsSink(
  url: string,
  cursor: { get(t: string): Promise<number> },
  policy: OutboundPolicy,
): AuditSink {
  return {
    description: `POST ${new URL(url).origin}`,
    lastSeq: (tenantId) => cursor.get(tenantId),
    async append(tenantId, fromSeq, lines) {
      const res = await guardedFetch(policy, url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': `${tenantId}:${fromSeq}` },
        body: `${lines.join('\n')}\n`,
        timeoutMs: 30_000,
      });
      if (!res.ok) throw new Error(`audit sink answered ${res.status}`);
    },
  };
}
