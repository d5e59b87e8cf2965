import { createHash } from 'node:crypto';
import { CompactSign } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import {
  cachedStatusListFetcher,
  type VerificationContext,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import {
  certificate,
  type IssuerPki,
  issuerPki,
  issueWithX5c,
  keyIdOf,
  type Node,
  statusListWithX5c,
} from '../support/issuer-x509.js';
import {
  context,
  employeeQuery,
  holder,
  issue,
  NOW,
  nowSeconds,
  present,
} from '../support/oid4vp-fixtures.js';

/**
 * Status List Tokens trusted by their own x5c chain (HAIP 1.0 §6.1.2: they carry x5c), the cached
 * verified list kept per anchor set and only while its certificates are valid, DCQL
 * `trusted_authorities` of type `aki` enforced on the answer, and a jwt_vc_json credential with x5c.
 */

const HOST = 'issuer.acme.test';
const ISS = `https://${HOST}`;
const VCT = `${ISS}/credentials/badge`;
const LIST = `${ISS}/status/1`;
const badge = (extra: Record<string, unknown> = {}): DcqlQuery => ({
  credentials: [{ id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, ...extra }],
});

let pki: IssuerPki;
let other: IssuerPki;
let statusSigner: Node;
beforeAll(async () => {
  pki = await issuerPki(HOST, 'Acme', NOW);
  other = await issuerPki(HOST, 'Rogue', NOW);
  // A status list signer of its own (not the credential's key), named after the issuer's host.
  statusSigner = await certificate({ subject: 'CN=status', issuer: pki.intermediate, dns: [HOST], at: NOW });
});

const credential = () =>
  issueWithX5c({
    signer: pki.leaf,
    x5c: [pki.leaf.base64, pki.intermediate.base64],
    payload: {
      iss: ISS,
      vct: VCT,
      iat: nowSeconds - 3600,
      cnf: { jwk: holder.publicJwk },
      status: { status_list: { idx: 3, uri: LIST } },
      email: 'ana@acme.test',
    },
    disclosable: ['email'],
  });

const list = (signer: Node, x5c: string[] | undefined, statuses: Record<number, number> = {}, uri = LIST) =>
  statusListWithX5c({ signer, x5c, uri, iat: nowSeconds - 60, statuses });

const ctx = (o: Partial<VerificationContext> = {}) => context({ trustAnchors: [pki.root.base64], ...o });

async function outcome(cred: string, c: VerificationContext, q: DcqlQuery = badge()) {
  const id = q.credentials[0]?.id as string;
  return verifyVpToken({ [id]: [await present(cred)] }, q, c).then(
    (r) => ({ code: 'accepted', message: '', trust: r.credentials[0]?.trust }),
    (e: { code: string; message: string }) => ({ code: e.code, message: e.message, trust: undefined }),
  );
}

describe('a Status List Token with an x5c chain', () => {
  it('is trusted by its chain (a signer of its own naming the issuer), and its entries count', async () => {
    const leafs = [statusSigner.base64, pki.intermediate.base64];
    expect(
      await outcome(await credential(), ctx({ fetchStatusList: () => list(statusSigner, leafs) })),
    ).toMatchObject({
      code: 'accepted',
      trust: { method: 'x509' },
    });
    const revoked = ctx({ fetchStatusList: () => list(statusSigner, leafs, { 3: 1 }) });
    expect((await outcome(await credential(), revoked)).code).toBe('revoked');
  });

  it('without x5c, is trusted when signed with the key of the credential’s leaf', async () => {
    const c = ctx({ fetchStatusList: () => list(pki.leaf, undefined, { 3: 2 }) });
    expect((await outcome(await credential(), c)).code).toBe('suspended');
  });

  it('with a bad chain, leaves the status unavailable, saying why', async () => {
    const rogue = ctx({
      fetchStatusList: () => list(other.leaf, [other.leaf.base64, other.intermediate.base64]),
    });
    const r = await outcome(await credential(), rogue);
    expect(r.code).toBe('status_unavailable');
    expect(r.message).toMatch(/CN=Rogue Root CA, which is not a trust anchor of this tenant/);
    const stranger = await certificate({
      subject: 'CN=x',
      issuer: pki.intermediate,
      dns: ['x.example'],
      at: NOW,
    });
    const named = ctx({ fetchStatusList: () => list(stranger, [stranger.base64, pki.intermediate.base64]) });
    expect((await outcome(await credential(), named)).message).toMatch(
      /iss https:\/\/issuer\.acme\.test is not named/,
    );
  });

  it('cached: verified again for another anchor set, and refused once its certificates expire', async () => {
    const shortLived = await certificate({
      subject: 'CN=status',
      issuer: pki.intermediate,
      dns: ['issuer.example'],
      notBefore: new Date(NOW.getTime() - 3_600_000),
      notAfter: new Date(NOW.getTime() + 3_600_000),
    });
    let fetches = 0;
    const fetcher = cachedStatusListFetcher(
      async (uri) => {
        fetches++;
        return list(shortLived, [shortLived.base64, pki.intermediate.base64], {}, uri);
      },
      { now: () => NOW, ttlFromToken: () => 86_400, maxTtlSeconds: 86_400 },
    );
    // Credentials of the fixture issuer (trusted by keys), their status list under the test CA.
    const cred = await issue();
    const run = async (c: VerificationContext, at = NOW) =>
      verifyVpToken(
        { employee: [await present(cred, () => true, { iat: at.getTime() / 1000 - 5 })] },
        employeeQuery(),
        {
          ...c,
          now: at,
        },
      ).then(
        () => 'accepted',
        (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
      );
    expect(await run(ctx({ fetchStatusList: fetcher }))).toBe('accepted');
    expect(await run(ctx({ fetchStatusList: fetcher }))).toBe('accepted');
    expect(await run(ctx({ fetchStatusList: fetcher, trustAnchors: [] }))).toMatch(/^status_unavailable/);
    expect(await run(ctx({ fetchStatusList: fetcher }), new Date(NOW.getTime() + 2 * 3_600_000))).toMatch(
      /^status_unavailable: .*a certificate it is trusted by has expired/,
    );
    expect(fetches).toBe(1);
  });
});

describe('DCQL trusted_authorities of type aki', () => {
  const aki = (...values: string[]) => badge({ trusted_authorities: [{ type: 'aki', values }] });
  const statusOk = () => ctx({ fetchStatusList: () => list(pki.leaf, undefined) });

  it('accepts a credential whose chain has a certificate with one of the authority key identifiers', async () => {
    expect((await outcome(await credential(), statusOk(), aki(keyIdOf(pki.root)))).code).toBe('accepted');
    expect((await outcome(await credential(), statusOk(), aki('AAAA', keyIdOf(pki.intermediate)))).code).toBe(
      'accepted',
    );
  });

  it('refuses one whose chain has none, and one trusted by keys rather than by a chain', async () => {
    const r = await outcome(await credential(), statusOk(), aki(keyIdOf(other.root)));
    expect(r).toMatchObject({ code: 'untrusted_authority' });
    expect(r.message).toContain(keyIdOf(pki.root));
    const byKeys = employeeQuery();
    const q = {
      credentials: byKeys.credentials.map((c) => ({
        ...c,
        trusted_authorities: [{ type: 'aki' as const, values: [keyIdOf(pki.root)] }],
      })),
    };
    const k = await verifyVpToken({ employee: [await present(await issue())] }, q, ctx()).catch((e) => e);
    expect(k).toMatchObject({ code: 'untrusted_authority' });
    expect(k.message).toMatch(/the issuer was trusted by jwks/);
  });

  it('takes only aki (base64url values) in a DCQL query', () => {
    const q = (ta: unknown) => ({ credentials: [{ ...badge().credentials[0], trusted_authorities: ta }] });
    expect(DcqlQuery.safeParse(q([{ type: 'aki', values: [keyIdOf(pki.root)] }])).success).toBe(true);
    expect(DcqlQuery.safeParse(q([{ type: 'etsi_tl', values: ['https://tl.example'] }])).success).toBe(false);
    expect(DcqlQuery.safeParse(q([{ type: 'aki', values: ['not base64url!'] }])).success).toBe(false);
  });
});

describe('a jwt_vc_json credential with x5c', () => {
  it('is trusted by its chain too', async () => {
    const vc = {
      iss: ISS,
      iat: nowSeconds - 60,
      vc: {
        type: ['VerifiableCredential', 'Badge'],
        issuer: ISS,
        credentialSubject: { email: 'ana@acme.test' },
      },
    };
    const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(vc)))
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', x5c: [pki.leaf.base64, pki.intermediate.base64] })
      .sign(pki.leaf.keys.privateKey);
    const q: DcqlQuery = {
      credentials: [
        {
          id: 'w3c',
          format: 'jwt_vc_json',
          meta: { type_values: [['Badge']] },
          require_cryptographic_holder_binding: false,
        },
      ],
    };
    const result = await verifyVpToken({ w3c: [jwt] }, q, ctx());
    const anchor = createHash('sha256').update(Buffer.from(pki.root.cert.rawData)).digest('hex');
    expect(result.credentials[0]?.trust).toEqual({
      method: 'x509',
      anchor,
      anchorSubject: 'CN=Acme Root CA',
    });
  });
});
