import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import { type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientAuth, pushSignIn } from '../support/pushed-sign-in.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * RFC 9126 for every client of the authorization server: where the issuer's server is (one host
 * name: also the OpenID provider), both well-known documents say require_pushed_authorization_requests
 * and it is so, for wallets and relying parties alike; the verifier alone on a host name of its own
 * also takes plain requests, and its document says that. A relying party pushes with its client
 * authentication and sends the browser with the request_uri, once.
 */
let f: TenantFixture;
const REDIRECT = 'https://rp.example/callback';

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

async function registerClient(t: TestService, tenantId: string, body: Record<string, unknown> = {}) {
  const res = await t.admin.createOidcClient({
    params: { id: tenantId },
    body: {
      redirect_uris: [REDIRECT],
      credential_configuration_id: 'LEARCredentialEmployee',
      ...body,
    } as never,
  });
  if (res.status !== 201) throw new Error(`client: ${res.status}`);
  return res.body;
}

const signInParams = (clientId: string, change: Record<string, string | undefined> = {}) => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT,
  scope: 'openid',
  state: 'st-1',
  nonce: 'n-1',
  code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
  code_challenge_method: 'S256',
  ...change,
});

/** A GET with a chosen Host header: the status, the Location and the body as text. */
function getAtHost(t: TestService, host: string | undefined, path: string) {
  return new Promise<{ status: number; location: string; text: string }>((resolve, reject) => {
    const req = http.request(`${t.baseUrl}${path}`, { headers: host ? { host } : {} }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? '', text }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const errorOf = (location: string) => new URL(location).searchParams.get('error');

describe('one host name: PAR required for wallets and relying parties alike', () => {
  it('says so in both well-known documents', async () => {
    const base = f.t.service.context.config.issuerUrl;
    for (const doc of ['openid-configuration', 'oauth-authorization-server'])
      expect(await (await fetch(`${f.t.baseUrl}/.well-known/${doc}`)).json()).toMatchObject({
        pushed_authorization_request_endpoint: `${base}/oauth2/par`,
        require_pushed_authorization_requests: true,
      });
  });

  it('signs a relying party in through PAR, and sends a plain request back with invalid_request', async () => {
    const client = await registerClient(f.t, f.tenant.id);
    const auth = { basic: { id: client.client_id, secret: client.client_secret as string } };
    const pushed = await pushSignIn(f.t.baseUrl, signInParams(client.client_id), auth);
    expect([pushed.status, pushed.json.expires_in]).toEqual([201, 60]);
    expect(pushed.json.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:sign-in:[\w-]{43}$/);
    const page = await getAtHost(f.t, undefined, new URL(pushed.url).pathname + new URL(pushed.url).search);
    expect(page.status, page.text.slice(0, 200)).toBe(200);
    expect(page.text).toContain('id="same-device"');
    // One use: the same request_uri again is an error page, redirected nowhere.
    const again = await getAtHost(f.t, undefined, new URL(pushed.url).pathname + new URL(pushed.url).search);
    expect([again.status, again.text]).toEqual([400, expect.stringContaining('invalid_request_uri')]);

    const plain = await getAtHost(
      f.t,
      undefined,
      `/oauth2/authorize?${new URLSearchParams(signInParams(client.client_id))}`,
    );
    expect(plain.status).toBe(303);
    expect(plain.location.startsWith(`${REDIRECT}?`)).toBe(true);
    expect(errorOf(plain.location)).toBe('invalid_request');
    expect(new URL(plain.location).searchParams.get('error_description')).toContain('PAR');
  });

  it('takes a request_uri only with the client_id that pushed it', async () => {
    const client = await registerClient(f.t, f.tenant.id);
    const other = await registerClient(f.t, f.tenant.id);
    const auth = { basic: { id: client.client_id, secret: client.client_secret as string } };
    const pushed = await pushSignIn(f.t.baseUrl, signInParams(client.client_id), auth);
    const url = new URL(pushed.url);
    url.searchParams.set('client_id', other.client_id);
    const page = await getAtHost(f.t, undefined, url.pathname + url.search);
    expect([page.status, page.text]).toEqual([400, expect.stringContaining('invalid_request')]);
  });

  it('authenticates the relying party at PAR, and answers what is wrong in OAuth JSON', async () => {
    const client = await registerClient(f.t, f.tenant.id);
    const basic = (secret: string): ClientAuth => ({ basic: { id: client.client_id, secret } });
    const cases: [ClientAuth, Record<string, string | undefined>, number, string][] = [
      [{}, {}, 401, 'invalid_client'],
      [basic('wrong'), {}, 401, 'invalid_client'],
      [
        { basic: { id: f.tenant.id, secret: f.tenant.integrator_token } },
        { client_id: f.tenant.id },
        401,
        'invalid_client',
      ],
      [
        basic(client.client_secret as string),
        { redirect_uri: 'https://elsewhere.example/cb' },
        400,
        'invalid_request',
      ],
      [basic(client.client_secret as string), { nonce: undefined }, 400, 'invalid_request'],
      [basic(client.client_secret as string), { code_challenge_method: 'plain' }, 400, 'invalid_request'],
      [basic(client.client_secret as string), { scope: 'profile' }, 400, 'invalid_scope'],
      [basic(client.client_secret as string), { request_uri: 'urn:x' }, 400, 'invalid_request'],
    ];
    for (const [auth, change, status, error] of cases) {
      const pushed = await pushSignIn(f.t.baseUrl, signInParams(client.client_id, change), auth);
      expect([JSON.stringify(change), pushed.status, pushed.json.error]).toEqual([
        JSON.stringify(change),
        status,
        error,
      ]);
    }
  });

  it('takes a private_key_jwt assertion whose audience is the issuer, the token or the PAR endpoint', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: 'rp-1', alg: 'ES256' };
    const client = await registerClient(f.t, f.tenant.id, {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [jwk] },
    });
    const base = f.t.service.context.config.issuerUrl;
    for (const audience of [base, `${base}/oauth2/token`, `${base}/oauth2/par`]) {
      const assertion = await new SignJWT({ jti: randomBytes(12).toString('base64url') })
        .setProtectedHeader({ alg: 'ES256', kid: 'rp-1' })
        .setIssuer(client.client_id)
        .setSubject(client.client_id)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(privateKey);
      const form = {
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      };
      const pushed = await pushSignIn(f.t.baseUrl, signInParams(client.client_id), { form });
      expect([audience, pushed.status]).toEqual([audience, 201]);
    }
  });
});

describe('two host names: the verifier alone also takes plain requests', () => {
  let t: TestService;
  let clientId: string;
  const verifier = 'http://verifier.example.test';
  beforeAll(async () => {
    t = await startTestService({
      env: { ISSUER_URL: 'http://issuer.example.test', VERIFIER_URL: verifier },
      db: f.t.db,
    });
    clientId = (await registerClient(t, f.tenant.id)).client_id;
  });
  afterAll(() => t.stop());

  it('says PAR is optional at the verifier’s host, required at the issuer’s, and does as it says', async () => {
    const atVerifier = JSON.parse(
      (await getAtHost(t, 'verifier.example.test', '/.well-known/openid-configuration')).text,
    );
    expect(atVerifier).toMatchObject({
      pushed_authorization_request_endpoint: `${verifier}/oauth2/par`,
      require_pushed_authorization_requests: false,
    });
    const atIssuer = JSON.parse(
      (await getAtHost(t, 'issuer.example.test', '/.well-known/oauth-authorization-server')).text,
    );
    expect(atIssuer).toMatchObject({ require_pushed_authorization_requests: true });
    const query = `/oauth2/authorize?${new URLSearchParams(signInParams(clientId))}`;
    const plain = await getAtHost(t, 'verifier.example.test', query);
    expect(plain.status, plain.text.slice(0, 200)).toBe(200);
    expect(plain.text).toContain('id="same-device"');
    const refused = await getAtHost(t, 'issuer.example.test', query);
    expect([refused.status, errorOf(refused.location)]).toEqual([303, 'invalid_request']);
  });
});
