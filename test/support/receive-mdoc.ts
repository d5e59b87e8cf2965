import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createClient, type createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from './fixtures.js';
import { mailedOffer } from './mailed-offer.js';
import type { TenantFixture } from './tenant-fixture.js';
import type { TestService } from './test-service.js';

/** The employee mdoc's doctype, which is also the namespace of its elements. */
export const EMPLOYEE_MDOC_NAMESPACE = 'eu.credservice.employee.1';

/**
 * Makes the tenant trust the deployment's development CA, which certifies the document signer: mdocs
 * are trusted only by that chain. Returns the CA's certificate (standard base64 DER).
 */
export async function trustDeploymentCa(t: TestService, tenantId: string): Promise<string> {
  const admin = createClient({ baseUrl: t.baseUrl, token: t.adminToken });
  const ca = await admin.admin.getDevelopmentCa();
  if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
  const added = await admin.trustedIssuers.addTrustAnchor({
    params: { id: tenantId },
    body: { certificate: ca.body.pem },
  });
  if (added.status !== 201) throw new Error(`trust anchor: ${added.status}`);
  return ca.body.certificate;
}

export interface ReceivedMdoc {
  offerId: string;
  /** The base64url IssuerSigned of the credential response. */
  credential: string;
  /** The device key the MSO names (P-256 JWK with `d`). */
  devicePrivateKey: JWK;
}

/**
 * The `EmployeeMdoc` as a wallet receives it: the integrator offers it by mail, the wallet redeems
 * the pre-authorized code with the mailed tx_code and asks for the credential with a proof of a
 * fresh device key, which the MSO then names.
 */
export async function receiveMdoc(f: TenantFixture, email: string): Promise<ReceivedMdoc> {
  const { offerId, location, txCode } = await mailedOffer(
    f.integrator,
    f.smtp,
    email,
    { [EMPLOYEE_MDOC_NAMESPACE]: employeePayload() },
    'EmployeeMdoc',
  );
  const offer = (await (await fetch(location)).json()) as {
    credential_configuration_ids: string[];
    grants: Record<string, { 'pre-authorized_code': string }>;
  };
  if (offer.credential_configuration_ids[0] !== 'EmployeeMdoc') throw new Error('not an EmployeeMdoc offer');
  const token = (await (
    await fetch(`${f.t.baseUrl}/oid4vci/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code': offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.[
          'pre-authorized_code'
        ] as string,
        tx_code: txCode,
      }),
    })
  ).json()) as { access_token: string };
  const { c_nonce } = (await (await fetch(`${f.t.baseUrl}/oid4vci/v1/nonce`, { method: 'POST' })).json()) as {
    c_nonce: string;
  };
  const device = await generateKeyPair('ES256', { extractable: true });
  const proof = await new SignJWT({ nonce: c_nonce })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: await exportJWK(device.publicKey) })
    .setAudience(f.t.service.context.config.issuerUrl)
    .setIssuedAt()
    .sign(device.privateKey);
  const res = await fetch(`${f.t.baseUrl}/oid4vci/v1/credential`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
    body: JSON.stringify({ credential_configuration_id: 'EmployeeMdoc', proofs: { jwt: [proof] } }),
  });
  if (res.status !== 200) throw new Error(`credential: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { credentials: { credential: string }[] };
  const credential = body.credentials[0]?.credential as string;
  return { offerId, credential, devicePrivateKey: await exportJWK(device.privateKey) };
}

/** The `EmployeeMdoc` issued straight to the integrator (delivery `direct`) for a fresh device key. */
export async function issueDirectMdoc(
  integrator: ReturnType<typeof createIntegratorClient>,
): Promise<Omit<ReceivedMdoc, 'offerId'>> {
  const device = await generateKeyPair('ES256', { extractable: true });
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'EmployeeMdoc',
      payload: { [EMPLOYEE_MDOC_NAMESPACE]: employeePayload() },
      delivery: 'direct',
      holder_key: (await exportJWK(device.publicKey)) as never,
    },
  });
  if (res.status !== 201 || !res.body.credential) throw new Error(`issuance: ${res.status}`);
  return { credential: res.body.credential, devicePrivateKey: await exportJWK(device.privateKey) };
}
