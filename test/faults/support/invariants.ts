import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeStatusList, readStatus } from '../../../server/status-list/status-list-encoding.js';
import type { CaughtMail } from '../../support/smtp-catcher.js';
import { query } from './private-postgres.js';

/** What must hold once the faults are over: nothing lost, checked against the database itself. */

const parsed = new WeakMap<CaughtMail, string | undefined>();
/** The Message-ID (the mail_message id) of a caught mail, read once per mail. */
export function messageIdOf(m: CaughtMail): string | undefined {
  if (!parsed.has(m)) parsed.set(m, /Message-ID: <([^@>]+)@credservice>/i.exec(m.raw)?.[1]);
  return parsed.get(m);
}

/** Every stored mail delivered at least once; how often each arrived. */
export async function mailState(dbUrl: string, caught: CaughtMail[]) {
  const rows = await query<{ id: string }>(dbUrl, 'select id from mail_message');
  const copies = new Map<string, number>();
  for (const m of caught) {
    const id = messageIdOf(m);
    if (id) copies.set(id, (copies.get(id) ?? 0) + 1);
  }
  const missing = rows.filter((r) => !copies.has(r.id)).length;
  const duplicated = [...copies].filter(([, n]) => n > 1).map(([id]) => id);
  return { stored: rows.length, missing, duplicated };
}

export interface RevokedEntry {
  listUri: string;
  idx: number;
}

/** Revoked credentials that the published status lists do not (yet) show as revoked. */
export async function unpublishedRevocations(entries: RevokedEntry[]): Promise<number> {
  const lists = new Map<string, Uint8Array | undefined>();
  for (const uri of new Set(entries.map((e) => e.listUri))) {
    const res = await fetch(uri).catch(() => undefined);
    const token = res?.ok ? await res.text() : undefined;
    const payload = token
      ? JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
      : undefined;
    lists.set(uri, payload ? decodeStatusList(payload.status_list.lst) : undefined);
  }
  return entries.filter((e) => {
    const bytes = lists.get(e.listUri);
    return !bytes || readStatus(bytes, 2, e.idx) !== 1;
  }).length;
}

/** Audit events not yet in the export: unsealed ones, and sealed ones past the exported file's end. */
export async function unexportedAuditEvents(dbUrl: string, exportDir: string): Promise<number> {
  const pending = await query<{ n: number }>(dbUrl, 'select count(*)::int as n from audit_pending');
  const tenants = await query<{ tenant_id: string; n: number }>(
    dbUrl,
    'select tenant_id, count(*)::int as n from audit_event group by tenant_id',
  );
  let missing = pending[0]?.n ?? 0;
  for (const t of tenants) {
    const text = await fs.readFile(path.join(exportDir, `${t.tenant_id}.ndjson`), 'utf8').catch(() => '');
    const seqs = new Set<number>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      const event = JSON.parse(line) as { type?: string; seq: number };
      if (event.type !== 'checkpoint') seqs.add(event.seq);
    }
    missing += Math.max(0, t.n - seqs.size);
  }
  return missing;
}
