import { exportJWK, generateKeyPair } from 'jose';
import { createClient, type createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from './fixtures.js';
import { mailedOffer } from './mailed-offer.js';
import { EMPLOYEE_NS, type ReceivedMdoc as Received, redeemMdocOffer } from './mdoc-wallet.js';
import type { TenantFixture } from './tenant-fixture.js';
import type { TestService } from './test-service.js';

/** The employee mdoc's doctype, which is also the namespace of its elements. */
export const EMPLOYEE_MDOC_NAMESPACE = EMPLOYEE_NS;

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

export interface ReceivedMdoc extends Received {
  offerId: string;
}

/** The `EmployeeMdoc` offered by mail and redeemed by the third-party mdoc wallet (mdoc-wallet.ts). */
export async function receiveMdoc(f: TenantFixture, email: string): Promise<ReceivedMdoc> {
  const { offerId, offerUri, txCode } = await mailedOffer(
    f.integrator,
    f.smtp,
    email,
    { [EMPLOYEE_NS]: employeePayload() },
    'EmployeeMdoc',
  );
  return { offerId, ...(await redeemMdocOffer(f.t.baseUrl, offerUri, txCode)) };
}

/** The `EmployeeMdoc` issued straight to the integrator (delivery `direct`) for a fresh device key. */
export async function issueDirectMdoc(
  integrator: ReturnType<typeof createIntegratorClient>,
): Promise<Received> {
  const device = await generateKeyPair('ES256', { extractable: true });
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'EmployeeMdoc',
      payload: { [EMPLOYEE_NS]: employeePayload() },
      delivery: 'direct',
      holder_key: (await exportJWK(device.publicKey)) as never,
    },
  });
  if (res.status !== 201 || !res.body.credential) throw new Error(`issuance: ${res.status}`);
  return { credential: res.body.credential, devicePrivateKey: await exportJWK(device.privateKey) };
}
