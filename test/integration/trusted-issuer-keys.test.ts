import { webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { certificate, issueWithX5c, type Node } from '../support/issuer-x509.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * Issue 21, 6c: an issuer trusted by its jwt-vc-issuer metadata while that metadata cannot be
 * fetched was registered silently, and its credentials then failed as a bare `untrusted_issuer`.
 * Now the registration looks its keys up at once: still trusted, but the 201 answer and the
 * tenant's warnings say the keys could not be resolved and why, a presentation's failure says the
 * same in `reason_description`, and the warning goes once a presentation finds the keys.
 */
let f: TenantFixture;
let signer: Node;
let stub: http.Server;
let iss: string;
/** Whether the stub issuer serves its metadata, or answers 503. */
let up = false;

beforeAll(async () => {
  f = await startTenantFixture();
  signer = await certificate({ subject: 'CN=metadata issuer' });
  const jwk = await webcrypto.subtle.exportKey('jwk', signer.keys.publicKey);
  stub = http.createServer((req, res) => {
    if (!up || req.url !== '/.well-known/jwt-vc-issuer') return res.writeHead(503).end();
    const { kty, crv, x, y } = jwk;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ issuer: iss, jwks: { keys: [{ kty, crv, x, y, kid: 'k1' }] } }));
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  iss = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await f?.stop();
  await new Promise((resolve) => stub?.close(resolve));
});

const admin = () => createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken });
const tenantWarnings = async () => {
  const res = await f.t.admin.getTenant({ params: { id: f.tenant.id } });
  if (res.status !== 200) throw new Error(`tenant: ${res.status}`);
  return res.body.warnings;
};

/** A badge of the stub issuer, presented by a third-party holder; the session as the integrator polls it. */
async function presentBadge() {
  const holder = await ThirdPartyHolder.create();
  const vct = `${iss}/credentials/badge`;
  const credential = await issueWithX5c({
    signer,
    x5c: [],
    payload: {
      iss,
      vct,
      iat: Math.floor(Date.now() / 1000) - 60,
      cnf: { jwk: holder.holderJwk },
      email: 'a@b.test',
    },
    disclosable: ['email'],
  });
  const created = await f.integrator.createAuthorizationRequest({
    body: {
      dcql_query: {
        credentials: [
          { id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: [vct] }, claims: [{ path: ['email'] }] },
        ],
      },
      response_mode: 'direct_post',
    } as never,
  });
  if (created.status !== 201) throw new Error(`session: ${created.status}`);
  await holder.present(created.body.authorization_request_uri, [credential]);
  const polled = await f.integrator.getAuthorizationRequest({ params: { id: created.body.session_id } });
  if (polled.status !== 200) throw new Error(`poll: ${polled.status}`);
  return polled.body;
}

describe('an issuer trusted by metadata that cannot be fetched', () => {
  it('is registered with a warning, fails presentations saying why, and is cleared once reachable', async () => {
    const registered = await admin().trustedIssuers.putTrustedIssuer({
      params: { id: f.tenant.id },
      body: { issuer: iss },
    });
    expect(registered.status).toBe(201);
    const [warning, ...more] = registered.status === 201 ? registered.body.warnings : [];
    expect(more).toEqual([]);
    expect(warning).toMatch(
      new RegExp(
        `^credentials of trusted issuer ${iss} fail as untrusted_issuer: its keys could not be resolved \\(.+\\): its jwt-vc-issuer metadata cannot be used: .*answered 503`,
      ),
    );
    expect(await tenantWarnings()).toContain(warning);
    const listed = await admin().trustedIssuers.listTrustedIssuers({ params: { id: f.tenant.id } });
    expect(listed.status === 200 && listed.body.items).toEqual([{ issuer: iss }]);

    const failed = await presentBadge();
    expect(failed).toMatchObject({ status: 'failed', reason: 'untrusted_issuer' });
    expect(failed.reason_description).toMatch(
      new RegExp(
        `the keys of trusted issuer ${iss} cannot be resolved: its jwt-vc-issuer metadata cannot be used: .*answered 503`,
      ),
    );

    up = true;
    const verified = await presentBadge();
    expect(verified).toMatchObject({ status: 'verified', trust: { method: 'jwt-vc-issuer-metadata' } });
    expect(verified).not.toHaveProperty('reason_description');
    expect((await tenantWarnings()).filter((w) => w.includes(iss))).toEqual([]);

    // Registering it again replaces it (200), and now its keys resolve: no warning.
    const again = await admin().trustedIssuers.putTrustedIssuer({
      params: { id: f.tenant.id },
      body: { issuer: iss },
    });
    expect(again.status).toBe(200);
    expect(again.status === 200 && again.body.warnings).toEqual([]);
  });

  it('has no warning when registered with its keys: nothing is fetched', async () => {
    up = false;
    const jwk = await webcrypto.subtle.exportKey('jwk', signer.keys.publicKey);
    const registered = await admin().trustedIssuers.putTrustedIssuer({
      params: { id: f.tenant.id },
      body: { issuer: `${iss}/keys`, jwks: { keys: [jwk as Record<string, unknown>] } },
    });
    expect(registered.status).toBe(201);
    expect(registered.status === 201 && registered.body.warnings).toEqual([]);
    expect((await tenantWarnings()).filter((w) => w.includes(`${iss}/keys`))).toEqual([]);
  });
});
