import { X509Certificate } from 'node:crypto';
import { compactVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createIntegratorClient } from '../../clients/integrator/src/index.js';
import { issueDirectCredential } from '../support/fixtures.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import {
  issuerRegistration,
  makeTestRegistrar,
  type TestRegistrar,
  verifierRegistration,
} from '../support/test-registrar.js';
import { acmeTenant } from '../support/test-service.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { decodeHeader, decodePayload, validateX5c } from '../support/x5c-validation.js';

/**
 * A tenant's verifier registration certificate (ETSI TS 119 475): imported over the admin API,
 * checked at import, and sent to wallets as `verifier_info` in every request object fetched after.
 */
let f: TenantFixture;
let registrar: TestRegistrar;
const ORG = 'VATES-B12345678'; // acmeTenant's mandator

beforeAll(async () => {
  [f, registrar] = await Promise.all([startTenantFixture(), makeTestRegistrar()]);
});
afterAll(() => f.stop());

const api = () => createClient({ baseUrl: f.t.baseUrl, token: f.t.adminToken }).registrationCertificates;
const put = (certificate: string, id = f.tenant.id) =>
  api().putVerifierRegistrationCertificate({ params: { id }, body: { certificate } });
const get = (id = f.tenant.id) => api().getVerifierRegistrationCertificate({ params: { id } });

/** A new session's request object, fetched as a wallet does from its link's request_uri. */
async function requestObject(integrator = f.integrator): Promise<Record<string, unknown>> {
  const res = await integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'LEARCredentialEmployee' },
  });
  if (res.status !== 201) throw new Error(`session: ${res.status}`);
  const requestUri = new URL(res.body.authorization_request_uri).searchParams.get('request_uri') ?? '';
  const fetched = await fetch(requestUri);
  expect(fetched.headers.get('content-type')).toMatch(/^application\/oauth-authz-req\+jwt/);
  return decodePayload(await fetched.text());
}

/** The signed request a page hands to the Digital Credentials API. */
async function dcApiRequestObject(): Promise<Record<string, unknown>> {
  const res = await f.integrator.createAuthorizationRequest({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      response_mode: 'dc_api.jwt',
      expected_origins: ['https://shop.example'],
    },
  });
  if (res.status !== 201 || !res.body.dc_api_request) throw new Error(`session: ${res.status}`);
  return decodePayload(String(res.body.dc_api_request.data.request));
}

describe('verifier registration certificate', () => {
  it('is absent until imported: 404, and request objects carry no verifier_info', async () => {
    const res = await get();
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: 'urn:credservice:problem:not-found', status: 404 });
    expect(await requestObject()).not.toHaveProperty('verifier_info');
  });

  it('refuses what is not this tenant’s valid registration, with the field, and stores nothing', async () => {
    const other = await makeTestRegistrar('Other');
    const good = await registrar.issue(verifierRegistration(ORG));
    const [h, p] = good.split('.');
    const forged = `${h}.${p}.${(await other.issue({})).split('.')[2]}`;
    const expired = verifierRegistration(ORG, { iat: 1_700_000_000, exp: 1_700_086_400 });
    for (const [certificate, reason] of [
      ['not-a-jwt', /not a JWT/],
      [await registrar.issue(expired), /expired/],
      [await registrar.issue(verifierRegistration(ORG), { typ: 'JWT' }), /typ/],
      [forged, /signature/],
      [await registrar.issue(verifierRegistration(ORG), { x5c: undefined }), /x5c/],
      [await registrar.issue(verifierRegistration('VATDE-999999999')), /VATDE-999999999.*not this party/],
      [await registrar.issue(issuerRegistration(ORG)), /entitlements/],
    ] as const) {
      const res = await put(certificate);
      expect(res.status, String(reason)).toBe(400);
      expect(res.body).toMatchObject({ type: 'urn:credservice:problem:validation-error', status: 400 });
      const errors = (res.body as { errors: { field: string; message: string }[] }).errors;
      expect(errors).toEqual([{ field: 'certificate', message: expect.stringMatching(reason) }]);
    }
    expect((await get()).status).toBe(404);
  });

  it('once imported, every new request object carries it as verifier_info, verifiable with its x5c', async () => {
    const jwt = await registrar.issue(verifierRegistration(ORG));
    const res = await put(jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      role: 'verifier',
      format: 'registration_cert',
      subject: `ACME Corp, ACME Employee Check (${ORG})`,
      issuer: 'CN=Registrar WRPRC Provider, O=Registrar',
      issued_at: expect.any(String),
      expires_at: new Date((decodePayload(jwt).exp as number) * 1000).toISOString(),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await get()).toMatchObject({ status: 200, body: res.body });

    for (const request of [await requestObject(), await dcApiRequestObject()]) {
      expect(request.verifier_info).toEqual([{ format: 'registration_cert', data: jwt }]);
      const [entry] = request.verifier_info as { data: string }[];
      const x5c = decodeHeader(entry?.data ?? '').x5c as string[];
      await validateX5c(x5c, registrar.root);
      const key = new X509Certificate(Buffer.from(x5c[0] ?? '', 'base64')).publicKey;
      const { protectedHeader } = await compactVerify(entry?.data ?? '', key);
      expect(protectedHeader.typ).toBe('rc-wrp+jwt');
    }
    const audit = await f.t.admin.listAuditEvents({
      params: { id: f.tenant.id },
      query: { action: 'verifier.registration_certificate_imported' },
    });
    expect(audit.status === 200 && audit.body.items.map((e) => e.subject)).toEqual([
      res.status === 200 && res.body.sha256,
    ]);
  });

  it('is the tenant’s own: another tenant’s request objects carry none', async () => {
    const other = await f.t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error(`tenant: ${other.status}`);
    expect((await get(other.body.id)).status).toBe(404);
    const token = other.body.integrator_token;
    const integrator = createIntegratorClient({ baseUrl: f.t.baseUrl, token });
    expect(await requestObject(integrator)).not.toHaveProperty('verifier_info');
  });

  it('wallets present to a request that carries it: ours, and one on @openid4vc/openid4vp', async () => {
    const session = async () => {
      const res = await f.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode: 'direct_post.jwt' },
      });
      if (res.status !== 201) throw new Error(`session: ${res.status}`);
      return res.body;
    };
    const status = async (id: string) => {
      const res = await f.integrator.getAuthorizationRequest({ params: { id } });
      return res.status === 200 ? res.body.status : res.status;
    };
    const ours = await walletWithCredential(f.integrator, f.smtp, 'holder@acme.test');
    const first = await session();
    await ours.wallet.present(first.authorization_request_uri, walletHttp);
    expect(await status(first.session_id)).toBe('verified');

    const holder = await ThirdPartyHolder.create();
    const credential = await issueDirectCredential(f.integrator, holder.holderJwk);
    const second = await session();
    const presented = await holder.present(second.authorization_request_uri, [credential]);
    expect(presented.resolved.authorizationRequestPayload).toHaveProperty('verifier_info');
    expect(presented.status).toBe(200);
    expect(await status(second.session_id)).toBe('verified');
  });

  it('after DELETE, new request objects carry none; a second DELETE is a 404', async () => {
    const remove = () => api().deleteVerifierRegistrationCertificate({ params: { id: f.tenant.id } });
    expect((await remove()).status).toBe(204);
    expect((await get()).status).toBe(404);
    expect(await requestObject()).not.toHaveProperty('verifier_info');
    expect(await dcApiRequestObject()).not.toHaveProperty('verifier_info');
    expect((await remove()).status).toBe(404);
  });
});
