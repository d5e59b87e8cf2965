import { expect } from 'vitest';
import type { createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { answerAnnexCRequest } from '../annex-c-wallet.js';
import { annexCRequestOf, createDcApiSession, postDcApiAnswer } from '../dc-api-page.js';
import { employeePayload } from '../fixtures.js';
import { oid4vpDcApiTranscript, presentMdoc } from '../mdoc-holder.js';
import { EMPLOYEE_NS, type ReceivedMdoc } from '../mdoc-wallet.js';
import { ThirdPartyHolder } from '../third-party-holder.js';

type Integrator = ReturnType<typeof createIntegratorClient>;
const ORIGIN = 'https://shop.example';

/**
 * The employee mdoc answered through the W3C Digital Credentials API both ways one
 * navigator.credentials.get call offers it: OpenID4VP (`openid4vp-v1-signed`, the device signature
 * over OID4VP 1.0 B.2.6.2's transcript, the response encrypted by @openid4vc/openid4vp) and ISO/IEC
 * 18013-7 Annex C (`org-iso-mdoc`: the DeviceRequest read and the HPKE seal made on the wallet's side
 * with @owf/mdoc and @hpke/core). Each session ends verified with the mdoc's claims.
 */
export async function presentMdocOverDcApi(integrator: Integrator, mdoc: ReceivedMdoc) {
  const session = () =>
    createDcApiSession(integrator, {
      credential_configuration_id: 'EmployeeMdoc',
      expected_origins: [ORIGIN],
    });
  const verified = async (id: string) => {
    const res = await integrator.getAuthorizationRequest({ params: { id } });
    expect(res.body).toMatchObject({
      status: 'verified',
      claims: { [EMPLOYEE_NS]: { mandatee: employeePayload().mandatee } },
      credentials: [{ format: 'mso_mdoc', credential_type: EMPLOYEE_NS }],
    });
  };

  const openid4vp = await session();
  expect(openid4vp.dc_api_requests.map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc']);
  const holder = await ThirdPartyHolder.create();
  const { data } = await holder.answerDcApiWithVpToken(openid4vp.dc_api_request, ORIGIN, async (resolved) => {
    const deviceResponse = await presentMdoc({
      issuerSigned: mdoc.credential,
      devicePrivateKey: mdoc.devicePrivateKey,
      sessionTranscript: await oid4vpDcApiTranscript(ORIGIN, resolved.authorizationRequestPayload as never),
      disclose: { [EMPLOYEE_NS]: ['mandator', 'mandatee', 'power'] },
    });
    return { credential: [Buffer.from(deviceResponse).toString('base64url')] };
  });
  const posted = await postDcApiAnswer(openid4vp, ORIGIN, data, 'openid4vp-v1-signed');
  expect(posted.status, await posted.clone().text()).toBe(200);
  await verified(openid4vp.session_id);

  const annexC = await session();
  const answer = await answerAnnexCRequest(annexCRequestOf(annexC), ORIGIN, mdoc);
  const sealed = await postDcApiAnswer(annexC, ORIGIN, answer, 'org-iso-mdoc');
  expect(sealed.status, await sealed.clone().text()).toBe(200);
  await verified(annexC.session_id);
}
