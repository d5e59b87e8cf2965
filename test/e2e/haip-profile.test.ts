import { createHash } from 'node:crypto';
import { CompactEncrypt, decodeJwt, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../clients/integrator/src/index.js';
import { runAdminCli } from '../support/admin-cli.js';
import { publishedStatus } from '../support/credential-status.js';
import { openEventStream } from '../support/event-stream.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { certificate, type IssuerPki, issuerPki, issueWithX5c, type Node } from '../support/issuer-x509.js';
import { pushSignIn } from '../support/pushed-sign-in.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { until } from '../support/until.js';

/**
 * The tenant's HAIP 1.0 profile through the real service: the operator switches it on with the CLI,
 * the integrator's sessions then follow the profile (refused at creation when they would not), and
 * the proof matrix: the third-party holder and our wallet present credentials under a test CA and
 * under the development CA (accepted, trust path x509), and what the profile refuses, with reasons.
 */
const HOST = 'issuer.partner.test';
const VCT = `https://${HOST}/credentials/badge`;
const DAY = 86_400_000;

let f: TenantFixture;
let pki: IssuerPki;
let rogue: IssuerPki;
let devRoot: string;
let n = 0;

beforeAll(async () => {
  f = await startTenantFixture();
  [pki, rogue] = await Promise.all([issuerPki(HOST, 'Partner'), issuerPki(HOST, 'Rogue')]);
  const ca = await f.t.admin.getDevelopmentCa();
  if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
  devRoot = ca.body.pem;
});
afterAll(() => f.stop());

const cli = async (...args: string[]) => runAdminCli(f.t, ...args);
const admin = () => createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken });
const sha256Hex = (pem: string) =>
  createHash('sha256')
    .update(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'))
    .digest('hex');

const badgeQuery = (extra: Record<string, unknown> = {}, vct = VCT) => ({
  credentials: [
    {
      id: 'badge',
      format: 'dc+sd-jwt',
      meta: { vct_values: [vct] },
      claims: [{ path: ['email'] }],
      ...extra,
    },
  ],
});

async function session(body: Record<string, unknown>) {
  const res = await f.integrator.createAuthorizationRequest({ body: body as never });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const poll = async (id: string) => {
  const res = await f.integrator.getAuthorizationRequest({ params: { id } });
  if (res.status !== 200) throw new Error(`poll: ${res.status}`);
  return res.body;
};

/** A badge of `iss` for the holder, signed by `signer` with `x5c` (none: no x5c header). */
const badge = (holder: ThirdPartyHolder, signer: Node, x5c: string[], iss = `https://${HOST}`, vct = VCT) =>
  issueWithX5c({
    signer,
    x5c,
    payload: {
      iss,
      vct,
      iat: Math.floor(Date.now() / 1000) - 60,
      cnf: { jwk: holder.holderJwk },
      email: 'ana@partner.test',
    },
    disclosable: ['email'],
  });

const underCa = (holder: ThirdPartyHolder, ca: IssuerPki, leaf = ca.leaf) =>
  badge(holder, leaf, [leaf.base64, ca.intermediate.base64]);

describe('switching the profile on', () => {
  it('is done with the CLI (and the admin API, which refuses an unknown profile); no session starts without anchors', async () => {
    const on = await cli('tenant', 'update', f.tenant.id, '--presentation-profile', 'haip-1.0');
    expect(on).toMatchObject({ code: 0, body: { presentation_profile: 'haip-1.0' } });
    const wrong = await admin().admin.updateTenant({
      params: { id: f.tenant.id },
      body: { presentation_profile: 'haip-2.0' } as never,
    });
    expect(wrong.status).toBe(400);
    const shown = await f.t.admin.getTenant({ params: { id: f.tenant.id } });
    expect(shown.body).toMatchObject({ presentation_profile: 'haip-1.0' });
    const warning = /presentation sessions cannot start: the HAIP 1\.0 profile .* has none/;
    expect(shown.status === 200 && shown.body.warnings.some((w) => warning.test(w))).toBe(true);

    const refused = await f.integrator.createAuthorizationRequest({
      body: { credential_configuration_id: 'LEARCredentialEmployee' },
    });
    expect(refused).toMatchObject({ status: 400, body: { errors: [{ field: 'presentation_profile' }] } });
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    // A sign-in through the tenant's OpenID provider is refused the same way, at the client's redirect_uri.
    const client = await f.t.admin.createOidcClient({
      params: { id: f.tenant.id },
      body: {
        client_name: 'Intranet',
        redirect_uris: ['https://rp.example/cb'],
        credential_configuration_id: 'LEARCredentialEmployee',
      } as never,
    });
    if (client.status !== 201) throw new Error(`client: ${client.status}`);
    const pushed = await pushSignIn(
      f.t.baseUrl,
      {
        response_type: 'code',
        client_id: client.body.client_id,
        redirect_uri: 'https://rp.example/cb',
        scope: 'openid',
        state: 'st',
        nonce: 'nn',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      },
      { basic: { id: client.body.client_id, secret: client.body.client_secret as string } },
    );
    const authorize = await fetch(pushed.url, { redirect: 'manual' });
    expect(authorize.status).toBe(303);
    const back = new URL(authorize.headers.get('location') ?? '');
    expect(back.searchParams.get('error')).toBe('unauthorized_client');
    expect(back.searchParams.get('error_description')).toMatch(
      /HAIP 1\.0 profile trusts issuers only by x5c/,
    );

    for (const certificate of [pki.root.pem, devRoot]) {
      const added = await admin().trustedIssuers.addTrustAnchor({
        params: { id: f.tenant.id },
        body: { certificate },
      });
      expect(added.status).toBe(201);
    }
    const fixed = await f.t.admin.getTenant({ params: { id: f.tenant.id } });
    expect(fixed.status === 200 && fixed.body.warnings.some((w) => warning.test(w))).toBe(false);
  });

  it('refuses at creation, by field, the sessions HAIP 1.0 does not allow, and stores none', async () => {
    const count = async () =>
      Number((await f.sql.query('select count(*) from presentation_session')).rows[0]?.count);
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ response_mode: 'direct_post' }, 'response_mode'],
      [{ client_id_prefix: 'x509_san_dns' }, 'client_id_prefix'],
      [
        { dcql_query: badgeQuery({ require_cryptographic_holder_binding: false }) },
        'dcql_query.credentials.0.require_cryptographic_holder_binding',
      ],
      [
        {
          dcql_query: {
            credentials: [
              { id: 'w3c', format: 'jwt_vc_json', meta: { type_values: [['VerifiableCredential']] } },
            ],
          },
        },
        'dcql_query.credentials.0.format',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await f.integrator.createAuthorizationRequest({
        body: {
          ...(body.dcql_query ? {} : { credential_configuration_id: 'LEARCredentialEmployee' }),
          ...body,
        } as never,
      });
      expect(res, field).toMatchObject({ status: 400, body: { errors: [{ field }] } });
      expect(JSON.stringify(res.body), field).toMatch(/HAIP 1\.0/);
    }
    expect(await count()).toBe(before);
  });
});

describe('presentations under the profile', () => {
  // First of our issuer's credentials here: its status list is not cached yet (the cache keeps a
  // list for its ttl, so a later revocation would show only after it).
  it('refuses a revoked credential of our issuer (its status list trusted by its own x5c)', async () => {
    const h = await walletWithCredential(f.integrator, f.smtp, `haip-${++n}@example.test`);
    await f.integrator.revokeCredential({ params: { id: h.credentialId } });
    await publishedStatus(f.t.baseUrl, f.t.service.context.signer, h.stored.compact, 1);
    const s = await session({ credential_configuration_id: 'LEARCredentialEmployee' });
    await expect(h.wallet.present(s.authorization_request_uri, walletHttp)).rejects.toThrow(/revoked/);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason: 'revoked' });
  });

  it('third-party holder, credential under the partner CA: a HAIP request, verified by x509, reported with the profile', async () => {
    const s = await session({ dcql_query: badgeQuery() });
    expect(s.authorization_request_uri).toMatch(/^haip-vp:\/\//);
    const holder = await ThirdPartyHolder.create();
    const answer = await holder.present(s.authorization_request_uri, [await underCa(holder, pki)]);
    const request = answer.resolved.authorizationRequestPayload as Record<string, unknown>;
    expect(request).toMatchObject({ response_mode: 'direct_post.jwt', response_type: 'vp_token' });
    expect(request.client_id).toMatch(/^x509_hash:/);
    const metadata = request.client_metadata as Record<string, unknown>;
    expect(metadata.encrypted_response_enc_values_supported).toEqual(['A128GCM', 'A256GCM']);
    // HAIP 1.0 sections 5 and 6: its two credential formats, and nothing else (no jwt_vc_json).
    expect(metadata.vp_formats_supported).toEqual({
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
    });
    expect(answer.status).toBe(200);
    const trust = { method: 'x509', anchor: sha256Hex(pki.root.pem), anchor_subject: 'CN=Partner Root CA' };
    expect(await poll(s.session_id)).toMatchObject({
      status: 'verified',
      profile: 'haip-1.0',
      trust,
      credentials: [{ id: 'badge', format: 'dc+sd-jwt', credential_type: VCT, trust }],
    });
  });

  it('our wallet, our issuer’s credential (development CA): verified by x509; SSE and the redirect’s ID token say so', async () => {
    const h = await walletWithCredential(f.integrator, f.smtp, `haip-${++n}@example.test`);
    const trust = { method: 'x509', anchor: sha256Hex(devRoot) };
    const qr = await session({ credential_configuration_id: 'LEARCredentialEmployee' });
    const stream = await openEventStream(`${f.t.baseUrl}/api/login/events?state=${qr.session_id}`);
    await until(
      async () => stream.text(),
      (x) => x.includes('pending'),
    );
    await h.wallet.present(qr.cross_device_uri, walletHttp);
    const events = await stream.done;
    expect(events).toContain('"profile":"haip-1.0"');
    expect(events).toContain(
      `"credentials":[{"id":"credential","trust":{"method":"x509","anchor":"${trust.anchor}"`,
    );
    expect(events).not.toContain('Ruiz');
    expect(await poll(qr.session_id)).toMatchObject({ status: 'verified', profile: 'haip-1.0', trust });

    const s = await session({
      credential_configuration_id: 'LEARCredentialEmployee',
      redirect_uri: 'https://rp.example/cb',
    });
    const result = await h.wallet.present(s.authorization_request_uri, walletHttp);
    const code = new URL(result.redirectUri ?? '').searchParams.get('code') ?? '';
    const token = await fetch(`${f.t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${f.tenant.id}:${f.tenant.integrator_token}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        session_binding: s.session_binding ?? '',
      }),
    });
    expect(token.status).toBe(200);
    const idToken = decodeJwt(((await token.json()) as { id_token: string }).id_token);
    expect(idToken).toMatchObject({
      presentation_profile: 'haip-1.0',
      credentials: [{ id: 'credential', trust }],
    });
  });

  it.each([
    ['an unknown root', () => rogue, undefined, 'certificate_untrusted'],
    ['an expired leaf', () => pki, { notBefore: -90, notAfter: -1 }, 'certificate_expired'],
    ['a leaf not valid yet', () => pki, { notBefore: 1, notAfter: 90 }, 'certificate_not_yet_valid'],
    [
      'a leaf naming another host than iss',
      () => pki,
      { dns: 'other.partner.test' },
      'certificate_name_mismatch',
    ],
  ] as const)('refuses a credential under %s, with the reason', async (_, ca, leafOptions, reason) => {
    const holder = await ThirdPartyHolder.create();
    const o = leafOptions as { notBefore?: number; notAfter?: number; dns?: string } | undefined;
    const leaf = o
      ? await certificate({
          subject: `CN=${HOST}`,
          issuer: ca().intermediate,
          dns: [o.dns ?? HOST],
          ...(o.notBefore !== undefined ? { notBefore: new Date(Date.now() + o.notBefore * DAY) } : {}),
          ...(o.notAfter !== undefined ? { notAfter: new Date(Date.now() + o.notAfter * DAY) } : {}),
        })
      : ca().leaf;
    const s = await session({ dcql_query: badgeQuery() });
    const answer = await holder.present(s.authorization_request_uri, [await underCa(holder, ca(), leaf)]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request' });
    expect(String(answer.body.error_description)).toContain(reason);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason, profile: 'haip-1.0' });
  });

  it('refuses plain direct_post and A192GCM answers (the session stays pending); takes A128GCM and A256GCM', async () => {
    const holder = await ThirdPartyHolder.create();
    const credential = await underCa(holder, pki);
    const s = await session({ dcql_query: badgeQuery() });
    const { authorizationRequestPayload: request } = await holder.resolve(s.authorization_request_uri);
    const { response_uri, state, client_metadata } = request as {
      response_uri: string;
      state: string;
      client_metadata: { jwks: { keys: JWK[] } };
    };
    const plain = await fetch(response_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ vp_token: JSON.stringify({ badge: ['x~'] }), state }),
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/requires an encrypted response/),
    });
    const key = client_metadata.jwks.keys[0] as JWK;
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ vp_token: { badge: ['x~'] }, state })),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A192GCM', kid: key.kid as string })
      .encrypt(await importJWK(key, 'ECDH-ES'));
    const a192 = await fetch(response_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ response: jwe }),
    });
    expect(a192.status).toBe(400);
    expect(await a192.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/A192GCM/),
    });
    expect((await poll(s.session_id)).status).toBe('pending');

    for (const enc of ['A128GCM', 'A256GCM'] as const) {
      const next = enc === 'A128GCM' ? s : await session({ dcql_query: badgeQuery() });
      const answer = await holder.present(next.authorization_request_uri, [credential], { enc });
      expect(answer.status, enc).toBe(200);
      expect((await poll(next.session_id)).status, enc).toBe('verified');
    }
  });

  it('refuses a presentation without KB-JWT', async () => {
    const holder = await ThirdPartyHolder.create();
    const s = await session({ dcql_query: badgeQuery() });
    const answer = await holder.present(s.authorization_request_uri, [await underCa(holder, pki)], {
      keyBinding: false,
    });
    expect(answer.status).toBe(400);
    expect(await poll(s.session_id)).toMatchObject({ status: 'failed', reason: 'missing_key_binding' });
  });
});

describe('an issuer the tenant trusts by its keys (jwks, no x5c)', () => {
  it('is refused under the profile (also for a session started under it), accepted with the profile off', async () => {
    const iss = 'https://keys.partner.test';
    const vct = `${iss}/credentials/badge`;
    const signer = await certificate({ subject: 'CN=keys only' });
    const jwk = { ...((await crypto.subtle.exportKey('jwk', signer.keys.publicKey)) as JWK), kid: 'k1' };
    const { kty, crv, x, y, kid } = jwk;
    const trusted = await admin().trustedIssuers.putTrustedIssuer({
      params: { id: f.tenant.id },
      body: { issuer: iss, jwks: { keys: [{ kty, crv, x, y, kid }] } },
    });
    expect(trusted.status).toBe(201);
    const holder = await ThirdPartyHolder.create();
    const credential = await badge(holder, signer, [], iss, vct);

    const under = await session({ dcql_query: badgeQuery({}, vct) });
    const startedUnder = await session({ dcql_query: badgeQuery({}, vct) });
    const refused = await holder.present(under.authorization_request_uri, [credential]);
    expect(refused.status).toBe(400);
    expect(await poll(under.session_id)).toMatchObject({ status: 'failed', reason: 'x5c_required' });

    const off = await cli('tenant', 'update', f.tenant.id, '--presentation-profile', 'none');
    expect(off).toMatchObject({ code: 0, body: { presentation_profile: null } });
    // A session keeps the profile it was created under.
    await holder.present(startedUnder.authorization_request_uri, [credential]);
    expect(await poll(startedUnder.session_id)).toMatchObject({
      reason: 'x5c_required',
      profile: 'haip-1.0',
    });

    const s = await session({ dcql_query: badgeQuery({}, vct), response_mode: 'direct_post' });
    expect(s.authorization_request_uri).toMatch(/^openid4vp:\/\//);
    const accepted = await holder.present(s.authorization_request_uri, [credential]);
    expect(accepted.status).toBe(200);
    const result = await poll(s.session_id);
    expect(result).toMatchObject({ status: 'verified', trust: { method: 'jwks' } });
    expect(result).not.toHaveProperty('profile');
  });
});
