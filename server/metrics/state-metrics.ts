import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';

type Em = () => EntityManager;
type Row = Record<string, string | number | null>;

/**
 * A gauge read from the database at scrape time. A failed read leaves the gauge empty for that
 * scrape (and says why in the log) instead of failing the whole scrape: the process metrics and the
 * request counters still matter most when the database is the trouble.
 */
function dbGauge(
  registry: Registry,
  logger: Logger,
  em: Em,
  o: { name: string; help: string; labelNames?: string[]; sql: string; set: (g: Gauge, rows: Row[]) => void },
) {
  return new Gauge({
    name: o.name,
    help: o.help,
    labelNames: o.labelNames ?? [],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        o.set(this, await em().execute<Row[]>(o.sql));
      } catch (err) {
        logger.warn({ err: (err as Error).message, metric: o.name }, 'metric not read');
      }
    },
  });
}

const num = (v: string | number | null | undefined) => Number(v ?? 0);

/** Job queues (the outbox table), audit sealing lag and status list age: shared by every node. */
export function stateMetrics(registry: Registry, logger: Logger, em: Em): void {
  dbGauge(registry, logger, em, {
    name: 'credservice_outbox_messages',
    help: 'Jobs in the outbox by topic and status: pending, dispatched (handed to a worker or queue), dead (every try failed)',
    labelNames: ['topic', 'status'],
    sql: `select topic, status, count(*) as n from outbox_message
          where status in ('pending', 'dispatched', 'dead') group by topic, status`,
    set: (g, rows) => {
      for (const r of rows) g.set({ topic: String(r.topic), status: String(r.status) }, num(r.n));
    },
  });
  dbGauge(registry, logger, em, {
    name: 'credservice_outbox_retrying',
    help: 'Jobs that failed at least once and wait for their next try, by topic',
    labelNames: ['topic'],
    sql: `select topic, count(*) as n from outbox_message
          where status in ('pending', 'dispatched') and attempts > 0 group by topic`,
    set: (g, rows) => {
      for (const r of rows) g.set({ topic: String(r.topic) }, num(r.n));
    },
  });
  dbGauge(registry, logger, em, {
    name: 'credservice_outbox_oldest_age_seconds',
    help: 'Age of the oldest job not yet done, by topic',
    labelNames: ['topic'],
    sql: `select topic, extract(epoch from now() - min(created_at)) as age from outbox_message
          where status in ('pending', 'dispatched') group by topic`,
    set: (g, rows) => {
      for (const r of rows) g.set({ topic: String(r.topic) }, num(r.age));
    },
  });
  dbGauge(registry, logger, em, {
    name: 'credservice_audit_sealing_lag_seconds',
    help: 'Age of the oldest committed audit event not yet sealed into its chain (0: none waits)',
    sql: 'select extract(epoch from now() - min(created_at)) as lag from audit_pending',
    set: (g, [r]) => g.set(num(r?.lag)),
  });
  dbGauge(registry, logger, em, {
    name: 'credservice_trust_source_age_seconds',
    help: 'Time since each trust source’s copy in force was fetched (since it was added, if never)',
    labelNames: ['source', 'type'],
    sql: `select id, type, extract(epoch from now() - coalesce(fetched_at, created_at)) as age from trust_source`,
    set: (g, rows) => {
      for (const r of rows) g.set({ source: String(r.id), type: String(r.type) }, num(r.age));
    },
  });
  dbGauge(registry, logger, em, {
    name: 'credservice_trust_sources_failing',
    help: 'Trust sources whose last fetch or validation failed (their last good copy, if any, still in force), by type',
    labelNames: ['type'],
    sql: 'select type, count(*) as n from trust_source where error is not null group by type',
    set: (g, rows) => {
      for (const r of rows) g.set({ type: String(r.type) }, num(r.n));
    },
  });
  dbGauge(registry, logger, em, {
    name: 'credservice_status_list_age_seconds',
    help: 'Time since each status list token was last published (since the list was made, if never)',
    labelNames: ['list'],
    sql: `select l.id, extract(epoch from now() - coalesce(t.issued_at, l.created_at)) as age
          from status_list l left join status_list_token t on t.list_id = l.id`,
    set: (g, rows) => {
      for (const r of rows) g.set({ list: String(r.id) }, num(r.age));
    },
  });
}
