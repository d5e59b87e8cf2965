import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DcqlCredentialQuery,
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  PresentationDeclinedError,
  presentOverDcApi,
  type StoredMdoc,
  selectForDcql,
  UnanswerableQueryError,
  verifyMdoc,
} from '../../clients/wallet/src/index.js';
import {
  oid4vpDcApiSessionTranscript,
  oid4vpSessionTranscript,
} from '../../server/formats/mso-mdoc/session-transcript.js';
import { signIssuerSigned } from '../../server/formats/mso-mdoc/sign-issuer-signed.js';
import { verifyDeviceResponse } from '../../server/formats/mso-mdoc/verify-device-response.js';
import { inMemoryVerifier, NONCE, RESPONSE_URI } from '../support/in-memory-verifier.js';
import { type MdocPki, mdocPki } from '../support/mdoc-issuer.js';
import {
  EMPLOYEE_DOCTYPE as DOCTYPE,
  employeeElements,
  MDOC_ISSUER,
  EMPLOYEE_NAMESPACE as NS,
} from '../support/mdoc-issuer-endpoints.js';

/**
 * The wallet's selection and DeviceResponse building with real mdocs (the service's
 * signIssuerSigned) and the service's verifyDeviceResponse as the verifier: each presentation
 * must verify under the SessionTranscript the verifier computes from its own request.
 */
const MDL = 'org.iso.18013.5.1.mDL';
const ORIGIN = 'https://verifier.test';
const QUERY: DcqlCredentialQuery = {
  id: 'employee_mdoc',
  format: 'mso_mdoc',
  meta: { doctype_value: DOCTYPE },
  claims: [{ path: [NS, 'mandatee'], intent_to_retain: false }, { path: [NS, 'power'] }],
};
const dcql = (q: Partial<DcqlCredentialQuery> = {}) => ({ credentials: [{ ...QUERY, ...q }] });

let pki: MdocPki;
let verifier: Awaited<ReturnType<typeof inMemoryVerifier>>;
const crypto = inMemoryHolderCrypto();
const stored: StoredMdoc[] = [];

/** An mdoc issued to a new key of `crypto` and stored as HolderWallet.receive stores it. */
async function storeMdoc(id: string, doctype: string, namespaces: Record<string, Record<string, unknown>>) {
  const key = await crypto.createKey();
  const now = new Date();
  const { credential } = await signIssuerSigned(pki.signingKey, {
    ...{ doctype, namespaces, deviceKey: key.publicJwk, signedAt: now, validFrom: now },
    validUntil: new Date(now.getTime() + 86_400_000),
  });
  const verified = await verifyMdoc(credential, { credentialIssuer: MDOC_ISSUER });
  stored.push({
    ...{ id, format: 'mso_mdoc', compact: credential, issuer: MDOC_ISSUER, doctype },
    ...{ claims: verified.claims, deviceKey: verified.deviceKey, holderKeyId: key.id, receivedAt: now },
  });
}

beforeAll(async () => {
  [pki, verifier] = await Promise.all([mdocPki('Acme'), inMemoryVerifier()]);
  // An mDL first, so that choosing by doctype is what finds the employee mdoc.
  await storeMdoc('mdl', MDL, { 'org.iso.18013.5.1': { given_name: 'Ana', family_name: 'Ruiz' } });
  await storeMdoc('employee', DOCTYPE, { [NS]: employeeElements() });
});

/** The service's verification of one vp_token entry under `transcript`; returns its claims. */
const verifiedClaims = (deviceResponse: string, transcript: Uint8Array) =>
  verifyDeviceResponse(deviceResponse, {
    sessionTranscript: transcript,
    trustAnchors: [pki.iaca.base64],
    now: Math.floor(Date.now() / 1000),
    skewSeconds: 60,
    expectedDoctype: DOCTYPE,
    requested: QUERY.claims?.map((c) => ({ namespace: NS, element: c.path[1] as string })),
  }).claims;

const elementsOf = (deviceResponse: string, transcript: Uint8Array) =>
  Object.keys(verifiedClaims(deviceResponse, transcript)[NS] ?? {});

const redirectTranscript = (encrypted: boolean, nonce = NONCE) =>
  oid4vpSessionTranscript({
    clientId: verifier.clientId,
    nonce,
    responseUri: RESPONSE_URI,
    ...(encrypted ? { responseEncryptionKey: verifier.encryptionJwk } : {}),
  });

async function walletFor(request: Promise<string>) {
  const served = verifier.serve(await request);
  const store = inMemoryCredentialStore();
  for (const c of stored) await store.save(c);
  return { served, wallet: new HolderWallet({ crypto, store, http: { fetch: served.fetch } }) };
}

describe('the wallet selects mdocs for mso_mdoc queries', () => {
  it('by doctype_value and [namespace, element] paths; an unmatched doctype or element is not selected', () => {
    const match = selectForDcql(dcql(), stored).employee_mdoc;
    expect(match?.credential.id).toBe('employee');
    expect(match?.claims.map((c) => c.path)).toEqual([
      [NS, 'mandatee'],
      [NS, 'power'],
    ]);
    expect(
      selectForDcql(dcql({ meta: { doctype_value: MDL }, claims: [] }), stored).employee_mdoc?.credential.id,
    ).toBe('mdl');
    for (const unmatched of [
      dcql({ meta: { doctype_value: 'org.example.other.1' } }),
      dcql({ claims: [{ path: [NS, 'salary'] }] }),
      dcql({ claims: [{ path: ['org.iso.18013.5.1', 'mandatee'] }] }),
      dcql({ format: 'dc+sd-jwt', meta: { vct_values: [DOCTYPE] } }),
    ])
      expect(() => selectForDcql(unmatched, stored)).toThrow(UnanswerableQueryError);
  });
});

describe('the wallet presents an mdoc (OID4VP Appendix B.2)', () => {
  it('direct_post: a DeviceResponse of the requested elements, signed over the B.2.6.1 transcript', async () => {
    const { wallet, served } = await walletFor(verifier.requestObject(dcql()));
    await wallet.present(verifier.link);
    const vpToken = JSON.parse(served.posted[0]?.vp_token ?? '');
    expect(Object.keys(vpToken)).toEqual(['employee_mdoc']);
    expect(vpToken.employee_mdoc).toHaveLength(1);
    const { mandatee, power } = employeeElements();
    expect(verifiedClaims(vpToken.employee_mdoc[0], redirectTranscript(false))).toEqual({
      [NS]: { mandatee, power },
    });
    // Bound to this request: under another nonce's transcript the device signature fails.
    expect(() => verifiedClaims(vpToken.employee_mdoc[0], redirectTranscript(false, 'other'))).toThrow();
  });

  it('direct_post.jwt: encrypted, and the transcript holds the thumbprint of the encryption key', async () => {
    const { wallet, served } = await walletFor(
      verifier.requestObject(dcql(), { response_mode: 'direct_post.jwt' }),
    );
    await wallet.present(verifier.link);
    const { vp_token } = await verifier.decrypt(served.posted[0]?.response ?? '');
    expect(elementsOf(vp_token.employee_mdoc[0], redirectTranscript(true))).toEqual(['mandatee', 'power']);
  });

  it('--only takes an element name or namespace.element, and refuses one that was not requested', async () => {
    for (const [only, element] of [
      ['mandatee', 'mandatee'],
      [`${NS}.power`, 'power'],
    ] as const) {
      const { wallet, served } = await walletFor(verifier.requestObject(dcql()));
      const result = await wallet.present(verifier.link, { only: [only] });
      expect(result.matches?.employee_mdoc?.claims).toEqual([
        expect.objectContaining({ path: [NS, element] }),
      ]);
      const deviceResponse = JSON.parse(served.posted[0]?.vp_token ?? '').employee_mdoc[0];
      expect(elementsOf(deviceResponse, redirectTranscript(false))).toEqual([element]);
    }
    const { wallet, served } = await walletFor(verifier.requestObject(dcql()));
    await expect(wallet.present(verifier.link, { only: ['mandator'] })).rejects.toThrow(
      /not requested by the verifier: mandator/,
    );
    expect(served.posted).toEqual([]);
  });

  for (const mode of ['dc_api', 'dc_api.jwt'] as const)
    it(`${mode}: signed over the B.2.6.2 transcript of the origin`, async () => {
      const request = {
        protocol: 'openid4vp-v1-unsigned',
        data: {
          response_type: 'vp_token',
          response_mode: mode,
          nonce: NONCE,
          dcql_query: dcql(),
          client_metadata: { jwks: { keys: [verifier.encryptionJwk] } },
        },
      };
      const { data } = await presentOverDcApi(request, ORIGIN, stored, crypto);
      const encrypted = mode === 'dc_api.jwt';
      const { vp_token } = encrypted ? await verifier.decrypt(String(data.response)) : data;
      const transcript = oid4vpDcApiSessionTranscript({
        origin: ORIGIN,
        nonce: NONCE,
        ...(encrypted ? { responseEncryptionKey: verifier.encryptionJwk } : {}),
      });
      expect(elementsOf(vp_token.employee_mdoc[0], transcript)).toEqual(['mandatee', 'power']);
    });

  it('per format: a verifier of SD-JWT VCs only gets no mdoc, one of neither format is refused', async () => {
    const sdJwtOnly = { vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'] } } };
    const declined = await walletFor(verifier.requestObject(dcql(), { client_metadata: sdJwtOnly }));
    await expect(declined.wallet.present(verifier.link)).rejects.toBeInstanceOf(PresentationDeclinedError);
    expect(declined.served.posted[0]).toMatchObject({ error: 'access_denied' });
    const neither = { vp_formats_supported: { mso_mdoc: { deviceauth_alg_values: [-35] } } };
    const refused = await walletFor(verifier.requestObject(dcql(), { client_metadata: neither }));
    await expect(refused.wallet.present(verifier.link)).rejects.toThrow(
      /vp_formats_not_supported: the verifier takes no dc\+sd-jwt; mso_mdoc deviceauth_alg_values lacks -7 or -9/,
    );
    expect(refused.served.posted).toEqual([]);
  });
});
