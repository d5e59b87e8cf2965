import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegratorClient } from '../../clients/integrator/src/index.js';
import type { HolderWallet } from '../../clients/wallet/src/index.js';
import { findChromium, type HeadlessChromium, launchChromium } from '../support/browser.js';
import { consoleTenant, employeeWallet, signInWithWallet } from '../support/console-fixture.js';
import { publishedStatus } from '../support/credential-status.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The administrators' console in a real browser (Debian's Chromium): employees sign in with the
 * demo wallet through the service's own OpenID provider; the tenant's settings decide who is an
 * administrator (Administration/Manage) or an auditor (Administration/Audit).
 */
const chromium = findChromium();
const skipReason = 'reason' in chromium ? chromium.reason : undefined;
if (skipReason) console.warn(`console: the browser tests are skipped: ${skipReason}`);
const skip = skipReason ? ` (skipped: ${skipReason})` : '';

let t: TestService;
let tenantId: string;
let integrator: IntegratorClient;
let browser: HeadlessChromium | undefined;
let admin: HolderWallet;
let auditor: HolderWallet;
let employee: HolderWallet;

const auditEvents = async (action: string) => {
  const res = await t.admin.listAuditEvents({
    params: { id: tenantId },
    query: { action, limit: 1000 } as never,
  });
  if (res.status !== 200) throw new Error(`audit: ${res.status}`);
  return res.body.items;
};
const statusOf = async (offerId: string) => {
  const res = await integrator.getIssuance({ params: { id: offerId } });
  if (res.status !== 200) throw new Error(`issuance: ${res.status}`);
  return res.body.credentials[0]?.status;
};

beforeAll(async () => {
  t = await startTestService();
  ({ id: tenantId, integrator } = await consoleTenant(t));
  admin = (
    await employeeWallet(integrator, { firstName: 'Ada', lastName: 'Admin', email: 'ada@acme.test' }, [
      { function: 'Administration', action: ['Manage'] },
    ])
  ).wallet;
  auditor = (
    await employeeWallet(integrator, { firstName: 'Otto', lastName: 'Auditor', email: 'otto@acme.test' }, [
      { function: 'Administration', action: ['Audit'] },
    ])
  ).wallet;
  employee = (
    await employeeWallet(integrator, { firstName: 'Eve', lastName: 'Employee', email: 'eve@acme.test' }, [
      { function: 'Onboarding', action: ['Execute'] },
    ])
  ).wallet;
  if (chromium.path) browser = await launchChromium(chromium.path);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** A page in the browser with no cookies left from an earlier test. */
async function freshPage() {
  const context = (browser as HeadlessChromium).context;
  await context.clearCookies();
  return context.newPage();
}

describe('console sign-in and actions in a browser', () => {
  it.skipIf(!chromium.path)(
    `an administrator revokes a credential and sees it revoked and audited${skip}`,
    async () => {
      const target = await employeeWallet(
        integrator,
        { firstName: 'Tom', lastName: 'Target', email: 'tom@acme.test' },
        [{ function: 'Onboarding', action: ['Execute'] }],
      );
      const page = await freshPage();
      const landed = await signInWithWallet(page, t.baseUrl, tenantId, admin);
      expect(landed.pathname).toBe(`/console/t/${tenantId}/issuances`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Issuances and credentials');
      const cookie = (await page.context().cookies()).find((c) => c.name === 'console');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

      await page.getByLabel('E-mail').fill('tom@acme.test');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: target.offerId }).click();
      await page.getByLabel('Reason to revoke').fill('Left the company');
      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('status').getByText('The credential was revoked.').waitFor();
      expect(await page.locator(`#credential-${target.credentialId} .status`).textContent()).toBe('revoked');
      expect(await statusOf(target.offerId)).toBe('revoked');
      expect(await publishedStatus(t.baseUrl, t.service.context.signer, target.credential, 1)).toBe(1);

      await page.getByRole('link', { name: 'History' }).click();
      const row = await page.locator('tr', { hasText: 'credential.revoked' }).textContent();
      expect(row).toContain('Ada Admin <ada@acme.test> (console)');
      expect(row).toContain('Left the company');
      await page.close();
    },
  );
});
