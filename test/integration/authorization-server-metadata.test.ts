import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { holderKey } from '../support/proof-jwt.js';
import { discoverLikeSphereon } from '../support/sphereon-discovery.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
let f: TenantFixture;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const json = async (url: string) => (await (await fetch(url)).json()) as Record<string, unknown>;

async function openOffer() {
  const { location, txCode } = await mailedOffer(f.integrator, f.smtp, `discovery-${++n}@example.test`);
  const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
  return { offer, txCode, code: offer.grants[PRE_AUTH]?.['pre-authorized_code'] ?? '' };
}

const tokenRequest = (endpoint: string, code: string, txCode: string) =>
  fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: PRE_AUTH, 'pre-authorized_code': code, tx_code: txCode }),
  });

describe('one authorization server per origin (issuer and verifier on one URL)', () => {
  it('serves the same document at openid-configuration and oauth-authorization-server', async () => {
    const base = f.t.service.context.config.issuerUrl;
    const oidc = await json(`${f.t.baseUrl}/.well-known/openid-configuration`);
    const rfc8414 = await json(`${f.t.baseUrl}/.well-known/oauth-authorization-server`);
    expect(oidc).toEqual(rfc8414);
    expect(oidc).toMatchObject({
      issuer: base,
      token_endpoint: `${base}/oauth2/token`,
      authorization_endpoint: `${base}/oauth2/authorize`,
      grant_types_supported: ['authorization_code', PRE_AUTH, 'refresh_token'],
      'pre-authorized_grant_anonymous_access_supported': true,
      token_endpoint_auth_methods_supported: expect.arrayContaining(['none', 'client_secret_basic']),
    });
    // The credential issuer names no other authorization server: it is this one (OID4VCI 12.2.4).
    expect(await json(`${f.t.baseUrl}/.well-known/openid-credential-issuer`)).not.toHaveProperty(
      'authorization_servers',
    );
  });

  it('lets a wallet that discovers like Sphereon’s client redeem an offer and get its credential', async () => {
    const { offer, code, txCode } = await openOffer();
    const found = await discoverLikeSphereon(offer.credential_issuer);
    expect(found.authorizationServerType).toBe('OIDC');
    const token = await tokenRequest(found.token_endpoint, code, txCode);
    const body = (await token.json()) as { access_token: string; token_type: string };
    expect(token.status, JSON.stringify(body)).toBe(200);
    expect(body.token_type).toBe('Bearer');

    const { c_nonce } = (await (await fetch(found.nonce_endpoint as string, { method: 'POST' })).json()) as {
      c_nonce: string;
    };
    const key = await holderKey();
    const credential = await fetch(found.credential_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${body.access_token}` },
      body: JSON.stringify({
        credential_configuration_id: 'LEARCredentialEmployee',
        proofs: { jwt: [await key.proof({ aud: offer.credential_issuer, nonce: c_nonce })] },
      }),
    });
    expect(credential.status).toBe(200);
    expect(((await credential.json()) as { credentials: unknown[] }).credentials).toHaveLength(1);
  });

  it('keeps a pre-authorized code single-use across both token endpoints', async () => {
    const { code, txCode } = await openOffer();
    expect((await tokenRequest(`${f.t.baseUrl}/oauth2/token`, code, txCode)).status).toBe(200);
    const again = await tokenRequest(`${f.t.baseUrl}/oid4vci/v1/token`, code, txCode);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

/** A GET or form POST with a chosen Host header, as a request for another host name reaches the node. */
function atHost(
  t: TestService,
  host: string,
  path: string,
  form?: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const data = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.baseUrl}${path}`,
      {
        method: form ? 'POST' : 'GET',
        headers: {
          host,
          ...(data ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(data ? { 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('two host names: each serves the documents of its own server', () => {
  let t: TestService;
  const issuer = 'http://issuer.example.test';
  const verifier = 'http://verifier.example.test';
  beforeAll(async () => {
    t = await startTestService({ env: { ISSUER_URL: issuer, VERIFIER_URL: verifier }, db: f.t.db });
  });
  afterAll(() => t.stop());

  it('describes the issuer’s server at the issuer’s host and the OpenID provider at the verifier’s', async () => {
    for (const wellKnown of ['openid-configuration', 'oauth-authorization-server']) {
      const atIssuer = await atHost(t, 'issuer.example.test', `/.well-known/${wellKnown}`);
      expect(atIssuer.body).toMatchObject({
        issuer,
        token_endpoint: `${issuer}/oauth2/token`,
        grant_types_supported: ['authorization_code', PRE_AUTH, 'refresh_token'],
        // The issuer alone: its authorization code flow takes pushed requests only (HAIP 1.0).
        authorization_endpoint: `${issuer}/oauth2/authorize`,
        pushed_authorization_request_endpoint: `${issuer}/oauth2/par`,
        require_pushed_authorization_requests: true,
        code_challenge_methods_supported: ['S256'],
      });
      const atVerifier = await atHost(t, 'verifier.example.test', `/.well-known/${wellKnown}`);
      expect(atVerifier.body).toMatchObject({
        issuer: verifier,
        token_endpoint: `${verifier}/oauth2/token`,
        authorization_endpoint: `${verifier}/oauth2/authorize`,
        grant_types_supported: ['authorization_code'],
      });
      expect((await atHost(t, 'elsewhere.example.test', `/.well-known/${wellKnown}`)).status).toBe(404);
    }
    const issuerMetadata = await atHost(t, 'issuer.example.test', '/.well-known/openid-credential-issuer');
    expect(issuerMetadata.body).toMatchObject({ credential_issuer: issuer });
    for (const wellKnown of ['openid-credential-issuer', 'jwt-vc-issuer'])
      expect((await atHost(t, 'verifier.example.test', `/.well-known/${wellKnown}`)).status).toBe(404);
  });

  it('takes at each token endpoint only the grants its document lists', async () => {
    const form = { grant_type: PRE_AUTH, 'pre-authorized_code': 'x.y.z', tx_code: '123456' };
    const atVerifier = await atHost(t, 'verifier.example.test', '/oauth2/token', form);
    expect(atVerifier.body).toMatchObject({ error: 'unsupported_grant_type' });
    const atIssuer = await atHost(t, 'issuer.example.test', '/oauth2/token', form);
    expect(atIssuer.body).toMatchObject({ error: 'invalid_grant' });
    // The issuer's authorization code grant takes only its own codes.
    const code = await atHost(t, 'issuer.example.test', '/oauth2/token', {
      grant_type: 'authorization_code',
      code: 'x',
      code_verifier: 'v'.repeat(43),
      redirect_uri: 'https://wallet.example/cb',
    });
    expect(code.body).toMatchObject({ error: 'invalid_grant' });
  });
});
