import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { consoleCorpus } from './console-corpus.js';
import { changedTables, snapshot } from './db-snapshot.js';
import { edgeCorpus } from './edge-corpus.js';
import { judge } from './expectations.js';
import { buildWorld, type World } from './hostile-world.js';
import { oidcCorpus } from './oidc-corpus.js';
import { openApiCorpus } from './openapi-corpus.js';
import { scimCorpus } from './scim-corpus.js';
import { sendAll } from './send.js';
import { walletCorpus } from './wallet-corpus.js';

/**
 * Tables an anonymous request may change by design, and why; every other table must be byte for
 * byte the same after the whole corpus. None today: c_nonces are derived, not stored; the reads that
 * build something lazily (a status list token, the verifier's certificate behind a request object)
 * were made once while the world was built, so they only read here.
 */
const CHANGED_BY_DESIGN: Record<string, string> = {};

const CONCURRENCY = 12;

let db: TestDatabase;
let world: World;
let t: TestService;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await buildWorld(db);
  // The suite runs against an api-only node: no worker changes the database while it is watched.
  t = await startTestService({ db, redis: false, env: { ROLE: 'api' } });
}, 120_000);

afterAll(async () => {
  await t?.stop();
  await db?.drop();
});

describe('the service under hostile requests', () => {
  it('answers every one with a 4xx (or success) in its audience format, and changes nothing', async () => {
    const parts = {
      openapi: openApiCorpus(world, t.adminToken),
      scim: scimCorpus(world, t.adminToken),
      oidc: oidcCorpus(world, t.adminToken, t.baseUrl),
      wallet: walletCorpus(world, t.baseUrl),
      edge: edgeCorpus(t.adminToken),
      console: consoleCorpus(),
    };
    const corpus = Object.values(parts).flat();
    const jwts = corpus.filter((r) => /JWT|assertion|proof|vp_token|JWE/.test(r.label)).length;
    const before = await snapshot(db.url);
    const started = Date.now();
    const answers = await sendAll(t.baseUrl, corpus, CONCURRENCY);
    const seconds = (Date.now() - started) / 1000;
    const after = await snapshot(db.url);

    const judged = answers.map((a) => ({ a, ...judge(a) }));
    const bad = judged.filter((j) => j.verdict !== 'ok');
    const count = (v: string) => judged.filter((j) => j.verdict === v).length;
    const allChanged = changedTables(before, after);
    const changed = allChanged.filter((c) => !(c.table in CHANGED_BY_DESIGN));
    for (const c of allChanged.filter((x) => x.table in CHANGED_BY_DESIGN)) {
      console.info(
        `  changed by design: ${c.table} (${c.before} -> ${c.after} rows): ${CHANGED_BY_DESIGN[c.table]}`,
      );
    }
    const byStatus = countBy(answers, (a) => String(a.status));
    console.info(
      `hostile suite: ${answers.length} requests in ${seconds.toFixed(1)} s; ` +
        `5xx ${count('5xx')}, wrong format ${count('wrong format')}, no answer ${count('no answer')}, ` +
        `unexpected table changes ${changed.length}; statuses ${JSON.stringify(byStatus)}; ` +
        `by source ${JSON.stringify(Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v.length])))}, ` +
        `forged tokens ${jwts}`,
    );
    for (const c of changed) console.info(`  changed: ${c.table} (${c.before} -> ${c.after} rows)`);
    // What was accepted that writes: the first suspects when a table changed.
    for (const a of answers.filter((x) => x.status < 400 && x.request.method !== 'GET')) {
      console.info(`  accepted: ${a.status} ${a.request.label} [${a.request.path.slice(0, 80)}]`);
    }
    for (const j of bad.slice(0, 40)) {
      console.info(
        `  ${j.verdict}: ${j.a.status} ${j.a.request.label} [${j.a.request.path.slice(0, 100)}] ${j.why ?? ''}`,
      );
    }
    expect(answers.length).toBeGreaterThanOrEqual(2_000);
    expect(bad.map((j) => `${j.verdict} ${j.a.status} ${j.a.request.label}: ${j.why}`)).toEqual([]);
    expect(changed).toEqual([]);
  }, 180_000);

  // Run after the corpus: the service answers this one 204 (it ignores members it cannot find and
  // audits the call), so it is no part of the change-nothing corpus; what matters is isolation.
  it("never lets a SCIM group take another tenant's user as a member", async () => {
    const res = await fetch(`${t.baseUrl}/tenants/${world.a.id}/scim/v2/Groups/${world.a.groupId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${world.a.scimToken}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'add', path: 'members', value: [{ value: world.b.userId }] }],
      }),
    });
    expect(res.status).toBeLessThan(500);
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const { rows } = await sql
      .query('select 1 from scim_group_member where group_id = $1 and user_id = $2', [
        world.a.groupId,
        world.b.userId,
      ])
      .finally(() => sql.end());
    expect(rows).toEqual([]);
  });
});

function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
