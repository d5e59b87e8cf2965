import { randomBytes } from 'node:crypto';
import { cborEncode, DeviceRequest } from '@owf/mdoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAnnexCRequest, sealAnnexCResponse } from '../support/annex-c-wallet.js';
import {
  annexCRequestOf,
  createDcApiSession,
  type DigitalCredentialRequest,
  postDcApiAnswer,
} from '../support/dc-api-page.js';
import { employeePayload } from '../support/fixtures.js';
import { oid4vpDcApiTranscript, presentMdoc } from '../support/mdoc-holder.js';
import {
  EMPLOYEE_MDOC_NAMESPACE as NS,
  type ReceivedMdoc,
  receiveMdoc,
  trustDeploymentCa,
} from '../support/receive-mdoc.js';
import { redeemResponseCode } from '../support/redeem-response-code.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';

/**
 * The employee mdoc presented over the W3C Digital Credentials API both ways a browser may hand it
 * over from one navigator.credentials.get call: OpenID4VP (`openid4vp-v1-signed`, dc_api.jwt; the
 * device signature over OID4VP 1.0 B.2.6.2's transcript, made by @owf/mdoc, the response encrypted by
 * @openid4vc/openid4vp) and ISO/IEC 18013-7 Annex C (`org-iso-mdoc`: the DeviceRequest read by
 * @owf/mdoc, the `dcapi` transcript and the HPKE seal computed on the wallet's side). Each is
 * verified with its claims; answers that are not this session's are refused and change nothing.
 */
const ORIGIN = 'https://shop.example';
const OTHER = 'https://other.example';
let f: TenantFixture;
let mdoc: ReceivedMdoc;
let holder: ThirdPartyHolder;

beforeAll(async () => {
  f = await startTenantFixture({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' });
  await trustDeploymentCa(f.t, f.tenant.id);
  mdoc = await receiveMdoc(f, 'mdoc-dc-api@example.test');
  holder = await ThirdPartyHolder.create();
});
afterAll(() => f.stop());

const session = (body: Record<string, unknown> = {}) =>
  createDcApiSession(f.integrator, {
    credential_configuration_id: 'EmployeeMdoc',
    expected_origins: [ORIGIN],
    ...body,
  });
const answerAnnexC = (s: { dc_api_requests: DigitalCredentialRequest[] }, origin: string) =>
  answerAnnexCRequest(annexCRequestOf(s), origin, mdoc);
const postAnnexC = (s: { dc_api_response_uri: string }, origin: string, data: unknown) =>
  postDcApiAnswer(s, origin, data, 'org-iso-mdoc');
const poll = async (id: string) =>
  (await f.integrator.getAuthorizationRequest({ params: { id } })).body as Record<string, unknown>;
const verifiedMdoc = {
  status: 'verified',
  claims: { [NS]: { mandatee: employeePayload().mandatee, power: employeePayload().power } },
  credentials: [{ id: 'credential', format: 'mso_mdoc', credential_type: NS, trust: { method: 'x509' } }],
};

describe('the employee mdoc over the Digital Credentials API', () => {
  it('is asked by OpenID4VP and by ISO 18013-7 Annex C in one call; an SD-JWT VC by OpenID4VP alone', async () => {
    const s = await session();
    expect(s.dc_api_requests.map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc']);
    expect(s.dc_api_requests[0]).toEqual(s.dc_api_request);
    const { deviceRequest } = annexCRequestOf(s);
    const read = DeviceRequest.decode(new Uint8Array(Buffer.from(deviceRequest, 'base64url')));
    expect(read.version).toBe('1.0');
    expect(read.docRequests.map((d) => d.itemsRequest.docType)).toEqual([NS]);
    const elements = read.docRequests[0]?.itemsRequest.namespaces.get(NS);
    expect([...(elements?.keys() ?? [])].sort()).toEqual(['mandatee', 'mandator', 'power']);
    expect([...(elements?.values() ?? [])]).not.toContain(true);
    const sdJwt = await session({ credential_configuration_id: 'LEARCredentialEmployee' });
    expect(sdJwt.dc_api_requests).toEqual([sdJwt.dc_api_request]);
  });

  it('is verified over openid4vp-v1-signed (dc_api.jwt) under the OID4VP B.2.6.2 transcript', async () => {
    const s = await session();
    const { data } = await holder.answerDcApiWithVpToken(s.dc_api_request, ORIGIN, async (resolved) => {
      const request = resolved.authorizationRequestPayload as { nonce: string };
      const deviceResponse = await presentMdoc({
        issuerSigned: mdoc.credential,
        devicePrivateKey: mdoc.devicePrivateKey,
        sessionTranscript: await oid4vpDcApiTranscript(ORIGIN, request),
        disclose: { [NS]: ['mandator', 'mandatee', 'power'] },
      });
      return { credential: [Buffer.from(deviceResponse).toString('base64url')] };
    });
    expect(Object.keys(data)).toEqual(['response']);
    const res = await postDcApiAnswer(s, ORIGIN, data, 'openid4vp-v1-signed');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await poll(s.session_id)).toMatchObject(verifiedMdoc);
  });

  it('is verified over org-iso-mdoc (dc_api.jwt session) under the Annex C transcript', async () => {
    const s = await session();
    const data = await answerAnnexC(s, ORIGIN);
    const res = await postAnnexC(s, ORIGIN, data);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await poll(s.session_id)).toMatchObject(verifiedMdoc);
    // One answer per session: the same answer again is refused, the session stays verified.
    const again = await postAnnexC(s, ORIGIN, data);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/already has its response/),
    });
    expect((await poll(s.session_id)).status).toBe('verified');
  });

  it('over org-iso-mdoc (dc_api session with a redirect_uri) redirects with a response_code', async () => {
    const s = await session({ response_mode: 'dc_api', redirect_uri: 'https://shop.example/done' });
    const data = await answerAnnexC(s, ORIGIN);
    const res = await postAnnexC(s, ORIGIN, data);
    const back = new URL(((await res.json()) as { redirect_uri: string }).redirect_uri);
    expect(back.origin + back.pathname).toBe('https://shop.example/done');
    expect(back.searchParams.get('state')).toBe(s.session_id);
    expect((await poll(s.session_id)).status).toBe('awaiting_redirect');
    const code = back.searchParams.get('code') ?? '';
    const exchanged = await redeemResponseCode(f.t.baseUrl, f.tenant, code, s.session_binding);
    expect(exchanged.status).toBe(200);
    expect(await poll(s.session_id)).toMatchObject(verifiedMdoc);
  });

  it('refuses an Annex C answer made for another origin, or posted to another session', async () => {
    const s = await session({ expected_origins: [ORIGIN, OTHER] });
    const data = await answerAnnexC(s, OTHER);
    for (const [origin, description] of [
      [ORIGIN, /does not decrypt for this session/],
      ['https://evil.example', /not an expected origin/],
    ] as const) {
      const res = await postAnnexC(s, origin, data);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: description });
    }
    const other = await session({ expected_origins: [ORIGIN, OTHER] });
    const elsewhere = await postAnnexC(other, OTHER, data);
    expect(await elsewhere.json()).toMatchObject({ error_description: /does not decrypt for this session/ });
    expect((await poll(s.session_id)).status).toBe('pending');
    expect((await poll(other.session_id)).status).toBe('pending');
    // The answer from the origin it was made for is this session's.
    const ok = await postAnnexC(s, OTHER, data);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await poll(s.session_id)).toMatchObject(verifiedMdoc);
  });

  it('answers garbage with invalid_request and leaves the session pending, never a 500', async () => {
    const s = await session();
    // Well-formed, but sealed to no key of this session.
    const sealed = new Map([['enc', Buffer.concat([Buffer.from([4]), randomBytes(64)])]]);
    const wrongKey = cborEncode(['dcapi', sealed.set('cipherText', randomBytes(80))]);
    const cases: [unknown, RegExp][] = [
      [{ response: Buffer.from('garbage').toString('base64url') }, /org-iso-mdoc: .*EncryptedResponse/],
      [{ response: 'not base64url!' }, /base64url/],
      [{ response: Buffer.from(cborEncode(['dcapi', 'x'])).toString('base64url') }, /org-iso-mdoc/],
      [{ response: Buffer.from(wrongKey).toString('base64url') }, /does not decrypt/],
      [{ response: 42 }, /response/],
      [{}, /data.response/],
    ];
    for (const [data, description] of cases) {
      const res = await postAnnexC(s, ORIGIN, data);
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: description });
    }
    expect((await poll(s.session_id)).status).toBe('pending');
    // A session that offered no Annex C request takes no Annex C answer.
    const sdJwt = await session({ credential_configuration_id: 'LEARCredentialEmployee' });
    const data = await answerAnnexC(s, ORIGIN);
    const res = await postAnnexC(sdJwt, ORIGIN, data);
    expect(await res.json()).toMatchObject({ error_description: /did not offer the org-iso-mdoc protocol/ });
    expect((await poll(sdJwt.session_id)).status).toBe('pending');
  });

  it('fails the session when what decrypts is no DeviceResponse of this transcript', async () => {
    const otherTranscript = await presentMdoc({
      issuerSigned: mdoc.credential,
      devicePrivateKey: mdoc.devicePrivateKey,
      sessionTranscript: await oid4vpDcApiTranscript(ORIGIN, { nonce: 'another session' }),
      disclose: { [NS]: ['mandator', 'mandatee', 'power'] },
    });
    for (const [reason, deviceResponse] of [
      // Sealed garbage: it decrypts, and is no CBOR DeviceResponse.
      ['malformed', new Uint8Array(randomBytes(40))],
      // A DeviceResponse signed over another transcript (OID4VP's, for the same origin).
      ['invalid_signature', otherTranscript],
    ] as const) {
      const s = await session();
      const { encryptionInfo } = annexCRequestOf(s);
      const response = await sealAnnexCResponse({ encryptionInfo, origin: ORIGIN, deviceResponse });
      const data = { response };
      const res = await postAnnexC(s, ORIGIN, data);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error_description: /presentation rejected/ });
      expect(await poll(s.session_id)).toMatchObject({ status: 'failed', verified: false, reason });
    }
  });
});
