import type { Page } from 'playwright-core';
import {
  createClient,
  createIntegratorClient,
  type IntegratorClient,
} from '../../clients/integrator/src/index.js';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  verifySdJwtVc,
} from '../../clients/wallet/src/index.js';
import { employeePayload } from './fixtures.js';
import { acmeTenant, type TestService } from './test-service.js';

/** The admin API's console routes. */
export const consoleAdmin = (t: TestService) =>
  createClient({ baseUrl: t.baseUrl, token: t.adminToken }).console;

/** A tenant whose console lets in `Administration/Manage` (administrators) and `Administration/Audit`. */
export async function consoleTenant(t: TestService) {
  const tenant = await t.admin.createTenant({ body: acmeTenant() });
  if (tenant.status !== 201) throw new Error(`tenant: ${tenant.status}`);
  const settings = await consoleAdmin(t).putConsoleSettings({
    params: { id: tenant.body.id },
    body: {
      administrator: { function: 'Administration', action: 'Manage' },
      auditor: { function: 'Administration', action: 'Audit' },
    },
  });
  if (settings.status !== 200) throw new Error(`console settings: ${settings.status}`);
  const integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: tenant.body.integrator_token });
  return { id: tenant.body.id, integrator };
}

/**
 * An employee's demo wallet holding one employee credential with these powers, issued directly by
 * the tenant (bound to the wallet's key). Returns the wallet and the credential.
 */
export async function employeeWallet(
  integrator: IntegratorClient,
  person: { firstName: string; lastName: string; email: string },
  power: { function: string; action: string[] }[],
) {
  const crypto = inMemoryHolderCrypto();
  const store = inMemoryCredentialStore();
  const wallet = new HolderWallet({ crypto, store, http: { allowHttp: true } });
  const key = await crypto.createKey();
  const issued = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: { ...employeePayload(), mandatee: person, power },
      delivery: 'direct',
      email: person.email,
      holder_key: key.publicJwk as never,
    },
  });
  if (issued.status !== 201 || !issued.body.credential) throw new Error(`issuance: ${issued.status}`);
  const verified = await verifySdJwtVc(issued.body.credential, {
    allowHttp: true,
    holderKeys: [key.publicJwk],
  });
  await store.save({
    id: 'employee',
    compact: issued.body.credential,
    issuer: verified.claims.iss as string,
    vct: verified.claims.vct as string,
    claims: verified.claims,
    holderKeyId: key.id,
    receivedAt: new Date(),
  });
  return {
    wallet,
    credential: issued.body.credential,
    credentialId: issued.body.credential_id as string,
    offerId: issued.body.offer_id,
  };
}

/**
 * Signs in to the tenant's console in the browser: the console sends it to the service's OpenID
 * login page, whose QR code the wallet answers (from "another device"); the page then follows the
 * session back to the console. Returns where the browser landed.
 */
export async function signInWithWallet(page: Page, baseUrl: string, tenantId: string, wallet: HolderWallet) {
  if (process.env.CONSOLE_DEBUG) page.on('response', (r) => console.log('>>', r.status(), r.url()));
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Organisation (tenant id)').fill(tenantId);
  await page.getByRole('button', { name: 'Sign in with your wallet' }).click();
  await page.waitForURL((u) => u.pathname === '/oauth2/authorize');
  const scanned = await page.locator('#qr').getAttribute('data-uri');
  await wallet.present(scanned as string);
  await page.waitForURL((u) => !u.pathname.startsWith('/oauth2/'), { timeout: 20_000 });
  return new URL(page.url());
}
