import { expect } from 'vitest';
import type { createClient, createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { employeePayload } from '../fixtures.js';

type Service = ReturnType<typeof createClient>;
type Integrator = ReturnType<typeof createIntegratorClient>;

/** A browser's cookie jar of one cookie: the console session's. */
function cookieOf(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  const pair = set.split(';')[0] ?? '';
  expect(pair).toMatch(/^(__Host-)?console=/);
  return pair;
}

/**
 * The console as the deployment's operator meets it, over plain HTTP as a browser sends it: the
 * one-time link from the admin API (as `npm run cli -- console link` prints it) signs in once, the
 * tenant's issuances page lists a fresh offer, and the issuance page's withdraw form (with the
 * session's CSRF token) withdraws it, which the integrator API then shows. The link works once.
 */
export async function consoleAsOperator(
  baseUrl: string,
  service: Service,
  integrator: Integrator,
  tenantId: string,
) {
  const offer = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui',
      email: `console-${Date.now()}@acme.test`,
    },
  });
  if (offer.status !== 201) throw new Error(`offer: ${offer.status}`);
  const link = await service.console.createConsoleLink({});
  if (link.status !== 201) throw new Error(`console link: ${link.status}`);
  const token = new URL(link.body.url).searchParams.get('link') ?? '';
  const signIn = () =>
    fetch(`${baseUrl}/console/operator`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ link: token }),
      redirect: 'manual',
    });
  const signedIn = await signIn();
  expect(signedIn.status).toBe(303);
  const cookie = cookieOf(signedIn);
  expect((await signIn()).status).toBe(403);

  const get = (path: string) => fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  const tenants = await get('/console/operator/tenants');
  expect(await tenants.text()).toContain(tenantId);
  const issuancePath = `/console/t/${encodeURIComponent(tenantId)}/issuances/${encodeURIComponent(offer.body.offer_id)}`;
  const page = await get(issuancePath);
  expect(page.status).toBe(200);
  const html = await page.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(csrf).not.toBe('');
  const withdrawn = await fetch(`${baseUrl}${issuancePath}/withdraw`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, reason: 'Mission: withdrawn from the console' }),
    redirect: 'manual',
  });
  expect(withdrawn.status).toBe(303);
  const after = await integrator.getIssuance({ params: { id: offer.body.offer_id } });
  expect(after.status === 200 && after.body.status).toBe('withdrawn');
}
