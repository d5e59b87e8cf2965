import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import { type VerificationContext, verifyVpToken } from '../../server/oid4vp/verification/index.js';
import {
  certificate,
  type IssuerPki,
  issuerPki,
  issueWithX5c,
  type Node,
  statusListWithX5c,
} from '../support/issuer-x509.js';
import {
  CLIENT_ID,
  context,
  decodeJson,
  holder,
  issue,
  NONCE,
  NOW,
  nowSeconds,
  VCT as OWN_VCT,
  present,
  selectDisclosures,
  sha256,
  statusLists,
} from '../support/oid4vp-fixtures.js';

/**
 * The HAIP 1.0 profile in verifyVpToken (`profile: 'haip-1.0'`): each rule it adds is shown to refuse
 * under the profile what the same verifier accepts without it, and the X.509 failures keep their
 * reasons. Credentials and Status List Tokens are made under a test CA with @peculiar/x509 and
 * @sd-jwt; the jwks-trusted issuer is the fixtures' in-memory one (no x5c).
 */

const HOST = 'issuer.haip.test';
const ISS = `https://${HOST}`;
const VCT = `${ISS}/credentials/badge`;
const LIST = `${ISS}/status/1`;
const HAIP = { profile: 'haip-1.0' } as const;

const query = (extra: Record<string, unknown> = {}): DcqlQuery => ({
  credentials: [
    {
      id: 'badge',
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
      claims: [{ path: ['email'] }],
      ...extra,
    },
  ],
});

let pki: IssuerPki;
let rogue: IssuerPki;
beforeAll(async () => {
  [pki, rogue] = await Promise.all([issuerPki(HOST, 'Haip', NOW), issuerPki(HOST, 'Rogue', NOW)]);
});

const credential = (o: { signer?: Node; x5c?: string[]; iss?: string; cnf?: JWK } = {}) =>
  issueWithX5c({
    signer: o.signer ?? pki.leaf,
    x5c: o.x5c ?? [pki.leaf.base64, pki.intermediate.base64],
    payload: {
      iss: o.iss ?? ISS,
      vct: VCT,
      iat: nowSeconds - 3600,
      exp: nowSeconds + 86_400,
      cnf: { jwk: o.cnf ?? holder.publicJwk },
      status: { status_list: { idx: 3, uri: LIST } },
      email: 'ana@haip.test',
    },
    disclosable: ['email'],
  });

const statusList = (o: { x5c?: string[] | undefined; statuses?: Record<number, number> } = {}) =>
  statusListWithX5c({
    signer: pki.leaf,
    x5c: 'x5c' in o ? o.x5c : [pki.leaf.base64, pki.intermediate.base64],
    uri: LIST,
    iat: nowSeconds - 60,
    statuses: o.statuses ?? {},
  });

const ctx = (o: Partial<VerificationContext> = {}) =>
  context({ trustAnchors: [pki.root.base64], fetchStatusList: () => statusList(), ...o });

const verify = async (presentation: string, c: VerificationContext, q = query()) =>
  verifyVpToken({ [q.credentials[0]?.id ?? '']: [presentation] }, q, c);

const refusal = async (presentation: string, c: VerificationContext, q = query()) => {
  const error = await verify(presentation, c, q).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the presentation was accepted').toBeDefined();
  return error as { code: string; message: string };
};

/** A leaf of the test CA for HOST, valid from `notBefore` to `notAfter`. */
const leafValid = (notBefore: Date, notAfter: Date) =>
  certificate({ subject: `CN=${HOST}`, issuer: pki.intermediate, dns: [HOST], notBefore, notAfter });

describe('under the HAIP 1.0 profile, a credential whose x5c chain leads to a tenant anchor', () => {
  it('is accepted, and the result names the x509 trust path', async () => {
    const result = await verify(await present(await credential()), ctx(HAIP));
    expect(result.credentials[0]).toMatchObject({
      issuer: ISS,
      claims: { email: 'ana@haip.test' },
      trust: { method: 'x509', anchorSubject: 'CN=Haip Root CA' },
    });
  });
});

describe('under the HAIP 1.0 profile, the X.509 path is refused with its reason', () => {
  it('an unknown root, even when the issuer’s keys would verify the signature (no fallback)', async () => {
    const leafJwk = (await crypto.subtle.exportKey('jwk', rogue.leaf.keys.publicKey)) as JWK;
    const keys = async (iss: string) =>
      iss === ISS ? { method: 'jwks' as const, keys: [leafJwk] } : undefined;
    const cred = await credential({
      signer: rogue.leaf,
      x5c: [rogue.leaf.base64, rogue.intermediate.base64],
    });
    // Without the profile the configured keys are the alternative path ...
    expect((await verify(await present(cred), ctx({ trustedIssuers: keys }))).credentials[0]?.trust).toEqual({
      method: 'jwks',
    });
    // ... under it the chain is the only one, and its failure is the answer.
    const e = await refusal(await present(cred), ctx({ ...HAIP, trustedIssuers: keys }));
    expect(e).toMatchObject({ code: 'certificate_untrusted' });
    expect(e.message).toMatch(/CN=Rogue Root CA, which is not a trust anchor of this tenant/);
  });

  it('an expired leaf, and one not valid yet', async () => {
    const day = 86_400_000;
    const expired = await leafValid(new Date(NOW.getTime() - 90 * day), new Date(NOW.getTime() - day));
    const future = await leafValid(new Date(NOW.getTime() + day), new Date(NOW.getTime() + 90 * day));
    const chain = (leaf: Node) => ({ signer: leaf, x5c: [leaf.base64, pki.intermediate.base64] });
    expect(await refusal(await present(await credential(chain(expired))), ctx(HAIP))).toMatchObject({
      code: 'certificate_expired',
    });
    expect(await refusal(await present(await credential(chain(future))), ctx(HAIP))).toMatchObject({
      code: 'certificate_not_yet_valid',
    });
  });

  it('a leaf that does not name iss', async () => {
    const e = await refusal(await present(await credential({ iss: 'https://other.haip.test' })), ctx(HAIP));
    expect(e).toMatchObject({ code: 'certificate_name_mismatch' });
  });

  it('a revoked credential (its Status List Token trusted by its own x5c chain)', async () => {
    const c = ctx({ ...HAIP, fetchStatusList: () => statusList({ statuses: { 3: 1 } }) });
    expect(await refusal(await present(await credential()), c)).toMatchObject({ code: 'revoked' });
  });
});

describe('what the HAIP 1.0 profile refuses that the verifier otherwise accepts', () => {
  it('a Status List Token without x5c (signed with the credential’s leaf key)', async () => {
    const c = (o: Partial<VerificationContext>) =>
      ctx({ fetchStatusList: () => statusList({ x5c: undefined }), ...o });
    const cred = await credential();
    expect((await verify(await present(cred), c({}))).credentials).toHaveLength(1);
    const e = await refusal(await present(cred), c(HAIP));
    expect(e).toMatchObject({ code: 'status_unavailable' });
    expect(e.message).toMatch(/has no x5c header/);
  });

  it('a presentation without KB-JWT, even when the query does not ask for holder binding', async () => {
    const unbound = query({ require_cryptographic_holder_binding: false });
    const sdJwt = selectDisclosures(await credential(), () => true);
    expect((await verify(sdJwt, ctx(), unbound)).credentials).toHaveLength(1);
    const e = await refusal(sdJwt, ctx(HAIP), unbound);
    expect(e).toMatchObject({
      code: 'missing_key_binding',
      message: 'badge: the presentation has no KB-JWT',
    });
  });

  it('an issuer trusted by its configured keys (no x5c): x5c_required', async () => {
    const own = query();
    const ownQuery = {
      credentials: [{ ...own.credentials[0], meta: { vct_values: [OWN_VCT] } }],
    } as DcqlQuery;
    const presentation = await present(await issue());
    const lists = { fetchStatusList: statusLists().fetch };
    const trusted = await verify(presentation, ctx(lists), ownQuery);
    expect(trusted.credentials[0]?.trust).toEqual({ method: 'jwks' });
    const e = await refusal(presentation, ctx({ ...lists, ...HAIP }), ownQuery);
    expect(e).toMatchObject({ code: 'x5c_required' });
    expect(e.message).toMatch(/trusted only by an x5c chain .* not by jwks or jwt-vc-issuer metadata/);
  });

  it('a credential signed with ES384 (under a P-384 leaf of the same CA)', async () => {
    const leaf = await certificate({
      subject: `CN=${HOST}`,
      issuer: pki.intermediate,
      dns: [HOST],
      at: NOW,
      curve: 'P-384',
    });
    const es256 = await credential();
    const [jwt, ...rest] = es256.split('~');
    const [h, p] = (jwt ?? '').split('.');
    const header = { ...decodeJson(h), alg: 'ES384', x5c: [leaf.base64, pki.intermediate.base64] };
    const signed = await new CompactSign(new TextEncoder().encode(JSON.stringify(decodeJson(p))))
      .setProtectedHeader(header as { alg: string })
      .sign(leaf.keys.privateKey);
    const es384 = [signed, ...rest].join('~');
    expect((await verify(await present(es384), ctx())).credentials[0]?.trust.method).toBe('x509');
    const e = await refusal(await present(es384), ctx(HAIP));
    expect(e).toMatchObject({ code: 'unsupported_algorithm' });
    expect(e.message).toMatch(
      /the issuer-signed JWT uses alg ES384; the HAIP 1.0 profile accepts ES256 only/,
    );
  });

  it('a KB-JWT signed with ES384 (a P-384 holder key)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const cred = await credential({ cnf: publicKey.export({ format: 'jwk' }) as JWK });
    const sdJwt = selectDisclosures(cred, () => true);
    const kb = await new CompactSign(
      new TextEncoder().encode(
        JSON.stringify({ nonce: NONCE, aud: CLIENT_ID, iat: nowSeconds - 5, sd_hash: sha256(sdJwt) }),
      ),
    )
      .setProtectedHeader({ alg: 'ES384', typ: 'kb+jwt' })
      .sign(privateKey);
    expect((await verify(sdJwt + kb, ctx())).credentials).toHaveLength(1);
    expect(await refusal(sdJwt + kb, ctx(HAIP))).toMatchObject({
      code: 'unsupported_algorithm',
      message: expect.stringMatching(/the KB-JWT uses alg ES384/),
    });
  });

  it('a credential of the legacy typ vc+sd-jwt', async () => {
    const [jwt, ...rest] = (await credential()).split('~');
    const [h, p] = (jwt ?? '').split('.');
    const signed = await new CompactSign(new TextEncoder().encode(JSON.stringify(decodeJson(p))))
      .setProtectedHeader({ alg: 'ES256', ...decodeJson(h), typ: 'vc+sd-jwt' })
      .sign(pki.leaf.keys.privateKey);
    const legacy = [signed, ...rest].join('~');
    expect((await verify(await present(legacy), ctx())).credentials).toHaveLength(1);
    expect(await refusal(await present(legacy), ctx(HAIP))).toMatchObject({
      code: 'unsupported_format',
      message: expect.stringMatching(/typ vc\+sd-jwt is not dc\+sd-jwt/),
    });
  });

  it('a credential format other than dc+sd-jwt', async () => {
    const w3c: DcqlQuery = {
      credentials: [{ id: 'w3c', format: 'jwt_vc_json', meta: { type_values: [['VerifiableCredential']] } }],
    };
    const e = await refusal('eyJ.eyJ.sig', ctx(HAIP), w3c);
    expect(e).toMatchObject({ code: 'unsupported_format' });
    expect(e.message).toMatch(/not a credential format of the HAIP 1.0 profile/);
  });
});
