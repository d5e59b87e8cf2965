import { webcrypto } from 'node:crypto';
import { SignJWT } from 'jose';
import { makeTestCa, type TestCa } from './test-ca.js';

const base64 = (cert: { rawData: ArrayBuffer }) => Buffer.from(cert.rawData).toString('base64');
const now = () => Math.floor(Date.now() / 1000);

export interface TestRegistrar {
  ca: TestCa;
  /** The registrar's chain as its certificates carry it: signing certificate, issuing CA. */
  x5c: string[];
  /** Standard base64 DER of the registrar's root, the trust anchor a wallet would hold. */
  root: string;
  /** A registration certificate (ETSI TS 119 475): `payload` signed ES256 under typ rc-wrp+jwt. */
  issue(payload: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
}

/**
 * A provider of registration certificates made in the test, as a national registrar runs one: a CA,
 * and a signing certificate it issued, whose key signs the certificates (x5c: leaf and issuing CA).
 */
export async function makeTestRegistrar(name = 'Registrar'): Promise<TestRegistrar> {
  const ca = await makeTestCa(name);
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const leaf = await ca.issueKey(keys.publicKey, { subject: `CN=${name} WRPRC Provider, O=${name}` });
  const x5c = [base64(leaf), base64(ca.intermediate)];
  return {
    ca,
    x5c,
    root: base64(ca.root),
    issue: (payload, header = {}) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'ES256', typ: 'rc-wrp+jwt', x5c, ...header })
        .sign(keys.privateKey),
  };
}

const SERVICE_PROVIDER = 'https://uri.etsi.org/19475/Entitlement/Service_Provider';
const NON_Q_EAA_PROVIDER = 'https://uri.etsi.org/19475/Entitlement/Non_Q_EAA_Provider';

/** What every registration says of the registrar's register (TS 119 475 V1.1.1 Table 7). */
const registerClaims = (organizationIdentifier: string, legalName: string) => ({
  sub: {
    legal_name: [legalName],
    id: [{ type: 'http://data.europa.eu/eudi/id/VATIN', identifier: organizationIdentifier }],
  },
  country: organizationIdentifier.slice(3, 5),
  registry_uri: 'https://registrar.example/wrp/api/v1/relying-parties/1',
  policy_id: ['0.4.0.19475.3.1'],
  certificate_policy: 'https://registrar.example/certificate-policy',
  iat: now() - 60,
  // Within the registrar's signing certificate (90 days), so exp is what ends it.
  exp: now() + 60 * 86_400,
  status: { status_list: { idx: 7, uri: 'https://registrar.example/status-lists/1' } },
});

/** A relying party's registration for one intended use: what it may ask for, and why. */
export const verifierRegistration = (
  organizationIdentifier: string,
  overrides: Record<string, unknown> = {},
) => ({
  name: 'ACME Employee Check',
  ...registerClaims(organizationIdentifier, 'ACME Corp'),
  service: [{ lang: 'en', value: 'Checks the employee credentials of ACME’s staff' }],
  entitlements: [SERVICE_PROVIDER],
  credentials: [{ format: 'dc+sd-jwt', meta: { vct_values: ['LEARCredentialEmployee'] } }],
  purpose: [{ lang: 'en', value: 'Signing employees in' }],
  ...overrides,
});

/** An attestation provider's registration: the attestations it issues. */
export const issuerRegistration = (
  organizationIdentifier: string,
  overrides: Record<string, unknown> = {},
) => ({
  name: 'ACME Credential Issuer',
  ...registerClaims(organizationIdentifier, 'ACME Corp'),
  service: [{ lang: 'en', value: 'Issues employee credentials' }],
  entitlements: [NON_Q_EAA_PROVIDER],
  provided_attestations: [{ format: 'dc+sd-jwt', meta: { vct_values: ['LEARCredentialEmployee'] } }],
  ...overrides,
});
