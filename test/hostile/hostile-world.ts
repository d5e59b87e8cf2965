import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import pg from 'pg';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { scimClient } from '../support/scim-client.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { seedVerifier } from './seed-verifier.js';

type Admin = TestService['admin'];

/** One tenant's things the hostile requests aim at: their real ids and tokens. */
export interface TenantWorld {
  id: string;
  integratorToken: string;
  scimToken: string;
  revokedToken: string;
  tokenId: string;
  credentialId: string;
  issuanceId: string;
  openOfferId: string;
  userId: string;
  groupId: string;
  pendingSessionId: string;
  finishedSessionId: string;
  finishedState: string;
  encKid: string;
  secretClient: { id: string; secret: string };
  jwtClient: { id: string; key: KeyObject; jwk: JWK };
}

export interface World {
  a: TenantWorld;
  b: TenantWorld;
  /** An OID4VCI access token of tenant a's redeemed offer, valid for five minutes. */
  accessToken: string;
  statusListId: string;
  issuerJwk: JWK;
}

async function createTenant(admin: Admin, id: string) {
  const created = await admin.createTenant({ body: acmeTenant(id) });
  if (created.status !== 201) throw new Error(`tenant ${id}: ${created.status}`);
  const extra = await admin.createToken({ params: { id }, body: { kind: 'integrator' } });
  if (extra.status !== 201) throw new Error(`token: ${extra.status}`);
  await admin.revokeToken({ params: { id, tokenId: extra.body.id } });
  const kept = await admin.createToken({ params: { id }, body: { kind: 'scim' } });
  if (kept.status !== 201) throw new Error(`token: ${kept.status}`);
  return { created: created.body, revokedToken: extra.body.token, tokenId: kept.body.id };
}

async function createOidcClients(admin: Admin, tenant: string) {
  const base = {
    redirect_uris: ['https://rp.example/cb'],
    credential_configuration_id: 'LEARCredentialEmployee',
  };
  const secret = await admin.createOidcClient({ params: { id: tenant }, body: base });
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'rp-key', alg: 'ES256' } as JWK & {
    kty: string;
  };
  const keyed = await admin.createOidcClient({
    params: { id: tenant },
    body: { ...base, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] } },
  });
  if (secret.status !== 201 || keyed.status !== 201) throw new Error('oidc clients');
  return {
    secretClient: { id: secret.body.client_id, secret: secret.body.client_secret ?? '' },
    jwtClient: { id: keyed.body.client_id, key: privateKey, jwk },
  };
}

/**
 * Builds, through the public APIs of a full node, everything the hostile requests aim at: two
 * tenants with tokens (one revoked), issued credentials, an open and a redeemed offer, SCIM users
 * and groups, presentation sessions (pending and finished), relying parties. Then waits until no job
 * is left, so that the api-only node the suite runs against starts from a still database.
 */
export async function buildWorld(db: TestService['db']): Promise<World> {
  const smtp = await startSmtpCatcher();
  const t = await startTestService({ db, redis: false, env: { SMTP_URL: smtp.url } });
  try {
    const tenant = async (id: string): Promise<TenantWorld> => {
      const { created, revokedToken, tokenId } = await createTenant(t.admin, id);
      const integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: created.integrator_token });
      const direct = await integrator.createIssuance({
        body: {
          credential_configuration_id: 'LEARCredentialEmployee',
          payload: employeePayload(),
          delivery: 'direct',
        },
      });
      if (direct.status !== 201 || !direct.body.credential_id) throw new Error(`direct: ${direct.status}`);
      const open = await mailedOffer(integrator, smtp, `open@${id}.test`);
      const scim = scimClient(t.baseUrl, id, created.scim_token);
      const user = await scim.post('/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `ana@${id}.test`,
        name: { givenName: 'Ana', familyName: 'Ruiz' },
        emails: [{ value: `ana@${id}.test`, type: 'work', primary: true }],
      });
      const group = await scim.post('/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Staff',
        members: [{ value: user.body.id }],
      });
      if (user.status !== 201 || group.status !== 201)
        throw new Error(`scim: ${user.status} ${group.status}`);
      return {
        id,
        integratorToken: created.integrator_token,
        scimToken: created.scim_token,
        revokedToken,
        tokenId,
        credentialId: direct.body.credential_id,
        issuanceId: direct.body.offer_id,
        openOfferId: open.offerId,
        userId: user.body.id,
        groupId: group.body.id,
        ...(await seedVerifier(t.baseUrl, integrator)),
        ...(await createOidcClients(t.admin, id)),
      };
    };
    const a = await tenant('hostile-a');
    const b = await tenant('hostile-b');
    const accessToken = await redeemedAccessToken(
      t.baseUrl,
      createIntegratorClient({ baseUrl: t.baseUrl, token: a.integratorToken }),
      smtp,
    );
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    const lists = await sql.query<{ id: string }>('select id from status_list');
    try {
      // Served once now, so the token a read would otherwise build lazily exists before the snapshot.
      for (const { id } of lists.rows) await fetch(`${t.baseUrl}/status-lists/${id}`);
      await waitForIdleOutbox(sql);
    } finally {
      await sql.end();
    }
    const jwks = (await (await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer`)).json()) as {
      jwks: { keys: JWK[] };
    };
    return { a, b, accessToken, statusListId: lists.rows[0]?.id ?? '', issuerJwk: jwks.jwks.keys[0] as JWK };
  } finally {
    await t.stop();
    await smtp.close();
  }
}

async function redeemedAccessToken(
  baseUrl: string,
  integrator: ReturnType<typeof createIntegratorClient>,
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>,
): Promise<string> {
  const offer = await mailedOffer(integrator, smtp, 'redeemed@hostile-a.test');
  const body = (await (await fetch(offer.location)).json()) as {
    grants: Record<string, { 'pre-authorized_code': string }>;
  };
  const code = Object.values(body.grants)[0]?.['pre-authorized_code'] ?? '';
  const res = await fetch(`${baseUrl}/oid4vci/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': code,
      tx_code: offer.txCode,
    }),
  });
  const token = (await res.json()) as { access_token?: string };
  if (!token.access_token) throw new Error(`token endpoint: ${res.status}`);
  return token.access_token;
}

/** Waits until no job is due (scheduled ones, such as status list refreshes hours ahead, may wait). */
async function waitForIdleOutbox(sql: pg.Client): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await sql.query<{ n: number }>(
      "select count(*)::int as n from outbox_message where status in ('pending', 'dispatched') and available_at < now() + interval '1 minute'",
    );
    if (rows[0]?.n === 0) return;
    if (Date.now() > deadline) {
      const left = await sql.query(
        "select topic, status, attempts, last_error, available_at from outbox_message where status in ('pending', 'dispatched')",
      );
      throw new Error(`jobs still pending: ${JSON.stringify(left.rows)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
