import pg from 'pg';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { startSmtpCatcher } from './smtp-catcher.js';
import { acmeTenant, startTestService, type TestService } from './test-service.js';

export interface TenantFixture {
  t: TestService;
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  tenant: { id: string; integrator_token: string; scim_token: string; scim_url: string };
  integrator: ReturnType<typeof createIntegratorClient>;
  /** A connection to the service's database, to check state the API does not show. */
  sql: pg.Client;
  stop(): Promise<void>;
}

/** The service with a real SMTP server, one tenant, its integrator client and a database connection. */
export async function startTenantFixture(env: Record<string, string> = {}): Promise<TenantFixture> {
  const smtp = await startSmtpCatcher();
  const t = await startTestService({ env: { SMTP_URL: smtp.url, ...env } });
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  const sql = new pg.Client({ connectionString: t.db.url });
  await sql.connect();
  return {
    t,
    smtp,
    tenant: created.body,
    integrator: createIntegratorClient({ baseUrl: t.baseUrl, token: created.body.integrator_token }),
    sql,
    async stop() {
      await sql.end();
      await t.stop();
      await smtp.close();
    },
  };
}
