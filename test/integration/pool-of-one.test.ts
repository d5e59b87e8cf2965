import { afterAll, beforeAll, describe, it } from 'vitest';
import { smtpMailbox } from '../support/mission/mailbox.js';
import { Mission } from '../support/mission/mission.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The hot paths on a pool of ONE database connection. A code path that holds a transaction and
 * then waits for a second pooled connection (a fork of the EntityManager, a signing-key read
 * outside the transaction) waits for itself forever here, and its test times out. That is how
 * the embedded default once deadlocked on its first issuance.
 */
let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let mission: Mission;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestService({ redis: false, env: { DATABASE_POOL_MAX: '1', SMTP_URL: smtp.url } });
  mission = new Mission(t.baseUrl, t.adminToken, smtpMailbox(smtp));
  await mission.createTenant();
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

describe('with a pool of one connection', () => {
  it('issues in every delivery mode and by the authorization code flow (issuer- and wallet-initiated), revokes, and the status list shows it', async () => {
    const ui = await mission.issueUi();
    await mission.issueEmail();
    await mission.issueDirect();
    await mission.issueByAuthorizationCode();
    await mission.issueWalletInitiated();
    await mission.revokeAndSee(await mission.credentialIdOf(ui.offerId), ui.stored);
  });

  it('serves concurrent credential requests', () => mission.concurrentRedemptions(4));

  it('verifies a presentation and an approval, and logs in over OpenID Connect', async () => {
    const { wallet } = await mission.issueUi();
    await mission.presentAndPoll(wallet);
    await mission.approve(wallet);
    await mission.oidcLogin(wallet);
  });

  it('issues, verifies and revokes the employee mdoc', () => mission.mdocLifecycle(), 60_000);

  it(
    'defers an issuance behind an approval: approved and collected, or declined; approved by a presented approval',
    () => mission.deferredLifecycle(),
    120_000,
  );

  it(
    'signs a holder in for issuance by a presented PID of a trusted provider',
    () => mission.pidSignIn(),
    60_000,
  );

  it(
    "lets the operator into the console with a one-time link and withdraw an offer by the page's form",
    () => mission.consoleAsOperator(),
    30_000,
  );

  it('provisions over SCIM and verifies the audit chain', async () => {
    await mission.scimLifecycle();
    await mission.auditVerified();
  });
});
