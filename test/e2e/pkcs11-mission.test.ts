import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpMailbox } from '../support/mission/mailbox.js';
import { Mission } from '../support/mission/mission.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import {
  createSoftHsmToken,
  type SoftHsmToken,
  softHsmAvailable,
  tokenPrivateKeys,
} from '../support/softhsm-token.js';
import { freePort } from '../support/spawned-service.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The shared mission on a service whose every key lives in a SoftHSM token (KEY_STORE=pkcs11, from
 * the first start): SD-JWT VC and mdoc issuance, status lists (JWT and CWT), request objects,
 * approvals, ID tokens and audit checkpoints are signed by the token and verified by wallets and
 * relying parties with the published keys. The database holds no private key at all, and a
 * restart finds the same keys in the token.
 */
const available = softHsmAvailable();
let token: SoftHsmToken;
let db: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let t: TestService;
let mission: Mission;

let port: number;

/** The same port on every start: credentials name the issuer by its address. */
const start = async () => {
  const address = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
  t = await startTestService({ db, redis: false, env: { ...token.env, ...address, SMTP_URL: smtp.url } });
  mission = new Mission(t.baseUrl, t.adminToken, smtpMailbox(smtp));
};

async function rows<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  if (!available) return;
  token = await createSoftHsmToken('mission');
  db = await createTestDatabase();
  smtp = await startSmtpCatcher();
  port = await freePort();
  await start();
  await mission.createTenant();
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await db?.drop();
  await smtp?.close();
  await token?.remove();
});

describe.skipIf(!available)('the mission with every key in a PKCS#11 token', () => {
  it('issues SD-JWT VCs in every delivery mode, revokes, and the status list shows it', async () => {
    const ui = await mission.issueUi();
    await mission.issueEmail();
    await mission.issueDirect();
    await mission.issueByAuthorizationCode();
    await mission.revokeAndSee(await mission.credentialIdOf(ui.offerId), ui.stored);
  }, 60_000);

  it('serves concurrent credential requests', () => mission.concurrentRedemptions(8), 60_000);

  it('verifies a presentation (signed request object), an approval with its receipt, an OIDC login', async () => {
    const { wallet } = await mission.issueUi();
    await mission.presentAndPoll(wallet);
    await mission.approve(wallet);
    await mission.oidcLogin(wallet);
  }, 60_000);

  it(
    'issues, verifies and revokes the employee mdoc (document signer, status list CWT)',
    () => mission.mdocLifecycle(),
    90_000,
  );

  it('seals the audit log with checkpoints that verify with the published audit keys', async () => {
    await mission.scimLifecycle();
    await mission.auditVerified();
  }, 60_000);

  it('keeps no private key in the database: every key and the development CA are in the token', async () => {
    const keys = await rows<{
      kid: string;
      key_store: string;
      private_key_enc: string | null;
      token_key: { id: string };
    }>('select kid, key_store, private_key_enc, token_key from signing_key');
    expect(keys.length).toBeGreaterThanOrEqual(6);
    for (const key of keys) expect(key).toMatchObject({ key_store: 'pkcs11', private_key_enc: null });
    const [ca] = await rows<{ private_key_enc: string | null; token_key: { id: string } | null }>(
      'select private_key_enc, token_key from development_ca',
    );
    expect(ca).toMatchObject({ private_key_enc: null, token_key: { id: expect.any(String) } });
    const inToken = (await tokenPrivateKeys(token)).map((k) => k.id);
    expect(inToken).toEqual(expect.arrayContaining([...keys.map((k) => k.token_key.id), ca?.token_key?.id]));
  });

  it('finds the same keys in the token after a restart, and signs with them', async () => {
    const before = await rows<{ kid: string }>(
      "select kid from signing_key where status = 'active' order by kid",
    );
    const { wallet } = await mission.issueUi();
    const tenant = mission.tenant;
    await t.stop();
    await start();
    mission.use(tenant);
    const after = await rows<{ kid: string }>(
      "select kid from signing_key where status = 'active' order by kid",
    );
    expect(after).toEqual(before);
    for (const purpose of ['issuer', 'oidc', 'audit'] as const)
      expect(before.map((r) => r.kid)).toContain(await t.service.context.signer.activeKid(purpose));
    await mission.oidcLogin(wallet);
  }, 60_000);
});
