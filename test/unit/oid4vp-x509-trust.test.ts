import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import { type VerificationContext, verifyVpToken } from '../../server/oid4vp/verification/index.js';
import {
  brokenSignature,
  certificate,
  type IssuerPki,
  issuerPki,
  issueWithX5c,
  type Node,
  statusListWithX5c,
  x509,
} from '../support/issuer-x509.js';
import { context, holder, NOW, nowSeconds, present } from '../support/oid4vp-fixtures.js';

/**
 * Issuer trust by X.509 (HAIP 1.0 §6.1.1, SD-JWT VC inline certificates): a credential signed under a
 * test CA made with @peculiar/x509 and @sd-jwt, presented to verifyVpToken with the tenant's anchors.
 */

const HOST = 'issuer.acme.test';
const ISS = `https://${HOST}`;
const VCT = `${ISS}/credentials/badge`;
const LIST = `${ISS}/status/1`;
const query: DcqlQuery = {
  credentials: [
    { id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['email'] }] },
  ],
};

let pki: IssuerPki;
let other: IssuerPki;
beforeAll(async () => {
  pki = await issuerPki(HOST, 'Acme', NOW);
  other = await issuerPki(HOST, 'Rogue', NOW);
});

const sha256Hex = (node: Node) => createHash('sha256').update(Buffer.from(node.cert.rawData)).digest('hex');

/** A credential of ISS signed by `signer` (default the leaf) with `x5c` (default leaf, intermediate). */
const credential = (o: { signer?: Node; x5c?: string[]; iss?: string; status?: boolean } = {}) =>
  issueWithX5c({
    signer: o.signer ?? pki.leaf,
    x5c: o.x5c ?? [pki.leaf.base64, pki.intermediate.base64],
    payload: {
      iss: o.iss ?? ISS,
      vct: VCT,
      iat: nowSeconds - 3600,
      exp: nowSeconds + 86_400,
      cnf: { jwk: holder.publicJwk },
      ...(o.status === false ? {} : { status: { status_list: { idx: 3, uri: LIST } } }),
      given_name: 'Ana',
      email: 'ana@acme.test',
    },
    disclosable: ['given_name', 'email'],
  });

/** The issuer's status list, signed by its leaf and x5c unless told otherwise. */
const statusList = (o: { signer?: Node; x5c?: string[]; statuses?: Record<number, number> } = {}) =>
  statusListWithX5c({
    signer: o.signer ?? pki.leaf,
    x5c: 'x5c' in o ? o.x5c : [pki.leaf.base64, pki.intermediate.base64],
    uri: LIST,
    iat: nowSeconds - 60,
    statuses: o.statuses ?? {},
  });

const ctx = (o: Partial<VerificationContext> = {}) =>
  context({ trustAnchors: [pki.root.base64], fetchStatusList: () => statusList(), ...o });

const verify = async (cred: string, c = ctx(), q = query) =>
  verifyVpToken({ [q.credentials[0]?.id ?? '']: [await present(cred)] }, q, c);

const refusal = async (cred: string, c = ctx(), q = query) => {
  const error = await verify(cred, c, q).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the presentation was accepted').toBeDefined();
  return error as { code: string; message: string };
};

describe('an SD-JWT VC whose x5c chain leads to a trust anchor of the tenant', () => {
  it('is accepted, and the result names the x509 trust path and its anchor', async () => {
    const result = await verify(await credential());
    expect(result.credentials[0]).toMatchObject({
      issuer: ISS,
      claims: { email: 'ana@acme.test' },
      trust: { method: 'x509', anchor: sha256Hex(pki.root), anchorSubject: 'CN=Acme Root CA' },
    });
  });

  it('is accepted with a trailing copy of the anchor in x5c, and with iss as a URI subjectAltName', async () => {
    const withRoot = [pki.leaf.base64, pki.intermediate.base64, pki.root.base64];
    expect((await verify(await credential({ x5c: withRoot }))).credentials[0]?.trust.method).toBe('x509');
    const uriIss = 'https://badges.acme.test/tenants/7';
    const leaf = await certificate({
      subject: 'CN=badges',
      issuer: pki.intermediate,
      uris: [uriIss],
      at: NOW,
    });
    const cred = await credential({
      signer: leaf,
      x5c: [leaf.base64, pki.intermediate.base64],
      iss: uriIss,
      status: false,
    });
    expect((await verify(cred)).credentials[0]?.issuer).toBe(uriIss);
  });
});

describe('an SD-JWT VC with an x5c chain is refused with the reason', () => {
  it('when the chain leads to an unknown root', async () => {
    const e = await refusal(await credential(), ctx({ trustAnchors: [other.root.base64] }));
    expect(e).toMatchObject({ code: 'certificate_untrusted' });
    expect(e.message).toMatch(/CN=Acme Root CA, which is not a trust anchor of this tenant/);
  });

  it('when the leaf has expired, or is not valid yet', async () => {
    const expired = await certificate({
      subject: `CN=${HOST}`,
      issuer: pki.intermediate,
      dns: [HOST],
      notBefore: new Date(NOW.getTime() - 90 * 86_400_000),
      notAfter: new Date(NOW.getTime() - 86_400_000),
    });
    const e = await refusal(
      await credential({ signer: expired, x5c: [expired.base64, pki.intermediate.base64] }),
    );
    expect(e).toMatchObject({ code: 'certificate_expired' });
    expect(e.message).toMatch(/certificate 0 of x5c \(CN=issuer\.acme\.test\) has expired/);
    const future = await certificate({
      subject: `CN=${HOST}`,
      issuer: pki.intermediate,
      dns: [HOST],
      notBefore: new Date(NOW.getTime() + 86_400_000),
    });
    const f = await refusal(
      await credential({ signer: future, x5c: [future.base64, pki.intermediate.base64] }),
    );
    expect(f).toMatchObject({ code: 'certificate_not_yet_valid' });
  });

  it('when the leaf does not name iss (another host, or a host under an https iss it does not hold)', async () => {
    const e = await refusal(await credential({ iss: 'https://other.acme.test' }));
    expect(e).toMatchObject({ code: 'certificate_name_mismatch' });
    expect(e.message).toMatch(/iss https:\/\/other\.acme\.test is not named .*DNS:issuer\.acme\.test/);
    const http = await refusal(await credential({ iss: `http://${HOST}` }));
    expect(http).toMatchObject({ code: 'certificate_name_mismatch' });
  });

  it('when the intermediate is not a CA (basicConstraints cA false, or absent)', async () => {
    for (const ca of [false, 'omit'] as const) {
      const notCa = await certificate({
        subject: 'CN=Acme Issuing CA',
        issuer: pki.root,
        ca,
        keyUsage: x509.KeyUsageFlags.keyCertSign,
        at: NOW,
      });
      const leaf = await certificate({ subject: `CN=${HOST}`, issuer: notCa, dns: [HOST], at: NOW });
      const e = await refusal(await credential({ signer: leaf, x5c: [leaf.base64, notCa.base64] }));
      expect(e).toMatchObject({ code: 'certificate_invalid' });
      expect(e.message).toMatch(/certificate 1 of x5c \(CN=Acme Issuing CA\) is not a CA/);
    }
  });

  it('when a signature in the chain is broken', async () => {
    const e = await refusal(await credential({ x5c: [pki.leaf.base64, brokenSignature(pki.intermediate)] }));
    expect(e).toMatchObject({ code: 'certificate_invalid' });
    expect(e.message).toMatch(
      /signature of certificate 1 .* does not verify with the key of the trust anchor/,
    );
    const leaf = await refusal(
      await credential({ x5c: [brokenSignature(pki.leaf), pki.intermediate.base64] }),
    );
    expect(leaf.message).toMatch(
      /signature of certificate 0 .* does not verify with the key of certificate 1/,
    );
  });

  it('when the chain is the anchor alone (a self-signed leaf)', async () => {
    const e = await refusal(await credential({ signer: pki.root, x5c: [pki.root.base64] }));
    expect(e).toMatchObject({ code: 'certificate_invalid' });
    expect(e.message).toMatch(/self-signed: it is the trust anchor itself/);
  });

  it('when a path length or a key usage is exceeded', async () => {
    const root = await certificate({ subject: 'CN=Strict Root', ca: true, pathLength: 0, at: NOW });
    const mid = await certificate({ subject: 'CN=Strict Issuing CA', issuer: root, ca: true, at: NOW });
    const leaf = await certificate({ subject: `CN=${HOST}`, issuer: mid, dns: [HOST], at: NOW });
    const e = await refusal(
      await credential({ signer: leaf, x5c: [leaf.base64, mid.base64] }),
      ctx({ trustAnchors: [root.base64] }),
    );
    expect(e.message).toMatch(/Strict Root allows 0 CA certificates below it, the chain has 1/);
    const signOnly = await certificate({
      subject: `CN=${HOST}`,
      issuer: pki.intermediate,
      dns: [HOST],
      keyUsage: x509.KeyUsageFlags.keyEncipherment,
      at: NOW,
    });
    const ku = await refusal(
      await credential({ signer: signOnly, x5c: [signOnly.base64, pki.intermediate.base64] }),
    );
    expect(ku).toMatchObject({ code: 'certificate_invalid' });
    expect(ku.message).toMatch(/lacks digitalSignature/);
  });

  it('without anchors, as an untrusted issuer (the chain is not evaluated)', async () => {
    expect(await refusal(await credential(), ctx({ trustAnchors: [] }))).toMatchObject({
      code: 'untrusted_issuer',
    });
  });
});

describe('keys stay an alternative to the chain', () => {
  it('an issuer trusted by its metadata keys is accepted by them when its chain fails', async () => {
    const leafJwk = await crypto.subtle.exportKey('jwk', pki.leaf.keys.publicKey);
    const c = ctx({
      trustAnchors: [other.root.base64],
      trustedIssuers: async (iss) =>
        iss === ISS ? { method: 'jwt-vc-issuer-metadata', keys: [leafJwk as never] } : undefined,
    });
    expect((await verify(await credential(), c)).credentials[0]?.trust).toEqual({
      method: 'jwt-vc-issuer-metadata',
    });
  });
});
