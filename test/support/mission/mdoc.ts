import { expect } from 'vitest';
import type { createClient, createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { fetchCredentialStatus, type StatusReference } from '../../../clients/wallet/src/index.js';
import { employeePayload } from '../fixtures.js';
import { EMPLOYEE_NS, presentEmployeeMdoc, type ReceivedMdoc, redeemMdocOffer } from '../mdoc-wallet.js';
import { until } from '../until.js';
import type { Mailbox } from './mailbox.js';
import { presentMdocOverDcApi } from './mdoc-dc-api.js';

type Service = ReturnType<typeof createClient>;
type Integrator = ReturnType<typeof createIntegratorClient>;

/** The tenant trusts the deployment's CA: an mdoc's issuer is trusted only by its x5chain. */
export async function trustDeploymentCa(service: Service, tenantId: string) {
  const ca = await service.admin.getDevelopmentCa();
  if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
  const added = await service.trustedIssuers.addTrustAnchor({
    params: { id: tenantId },
    body: { certificate: ca.body.pem },
  });
  expect([200, 201]).toContain(added.status);
}

/** An EmployeeMdoc offered with ui delivery and redeemed with the mailed tx_code. */
export async function receiveEmployeeMdoc(
  baseUrl: string,
  integrator: Integrator,
  mailbox: Mailbox,
  email: string,
): Promise<ReceivedMdoc & { offerId: string }> {
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'EmployeeMdoc',
      payload: { [EMPLOYEE_NS]: employeePayload() },
      delivery: 'ui',
      email,
    },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  const txCode = /activation code is: (\d{6})/.exec(await mailbox.find(email, /activation code is/))?.[1];
  return {
    offerId: res.body.offer_id,
    ...(await redeemMdocOffer(baseUrl, res.body.credential_offer_uri, txCode ?? '')),
  };
}

/**
 * Two employee mdocs; one is revoked before any verifier has read the list, so that its refusal does
 * not wait for a cached list's ttl: the other verifies with its claims by namespace over
 * direct_post.jwt, the Digital Credentials API and ISO 18013-7 Annex C, the revoked one fails as
 * `revoked`, read from the list's CWT form.
 */
export async function mdocLifecycle(
  baseUrl: string,
  service: Service,
  integrator: Integrator,
  tenantId: string,
  mailbox: Mailbox,
  email: () => string,
) {
  await trustDeploymentCa(service, tenantId);
  const kept = await receiveEmployeeMdoc(baseUrl, integrator, mailbox, email());
  const revoked = await receiveEmployeeMdoc(baseUrl, integrator, mailbox, email());
  const issuance = await integrator.getIssuance({ params: { id: revoked.offerId } });
  const credential = issuance.status === 200 ? issuance.body.credentials[0] : undefined;
  expect((await integrator.revokeCredential({ params: { id: credential?.id ?? '' } })).status).toBe(200);
  // Published within a second or so. A verifier that read the list before keeps it for its ttl, so
  // the wallet presents only once the published CWT says revoked.
  const published = await until(
    () =>
      fetchCredentialStatus(credential?.status_list as StatusReference, baseUrl, {
        allowHttp: true,
        preferCwt: true,
      }),
    (s) => s.value === 1,
    15_000,
  );
  expect(published.label).toBe('INVALID');
  const refused = (await presentEmployeeMdoc(integrator, revoked)).result;
  expect(refused).toMatchObject({ status: 'failed', reason: 'revoked' });
  const { result } = await presentEmployeeMdoc(integrator, kept);
  expect(result).toMatchObject({
    status: 'verified',
    claims: { [EMPLOYEE_NS]: { mandatee: employeePayload().mandatee } },
    credentials: [{ format: 'mso_mdoc', credential_type: EMPLOYEE_NS, trust: { method: 'x509' } }],
  });
  await presentMdocOverDcApi(integrator, kept);
}
