import { expect } from 'vitest';
import type { createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { employeePayload } from '../fixtures.js';
import { ThirdPartyWallet } from '../third-party-wallet.js';
import type { Mailbox } from './mailbox.js';

/**
 * HAIP's authorization code flow as a third-party wallet runs it (@openid4vc/openid4vci): an offer
 * with an authorization_code grant, PAR, the hosted sign-in page with the code mailed to the
 * employee, a DPoP-bound token, the credential. Its pending requests live in the TTL store, in
 * memory on the embedded default: this is what runs it there.
 */
export async function issueByAuthorizationCode(
  baseUrl: string,
  integrator: ReturnType<typeof createIntegratorClient>,
  mailbox: Mailbox,
  email: string,
  /** The employee mdoc instead of the SD-JWT VC: its payload and claims sit in its namespace. */
  namespace?: string,
) {
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: namespace ? 'EmployeeMdoc' : 'LEARCredentialEmployee',
      payload: namespace ? { [namespace]: employeePayload() } : employeePayload(),
      delivery: 'ui',
      email,
      grant_type: 'authorization_code',
    },
  });
  expect(res.status).toBe(201);
  const offerUri = res.status === 201 ? (res.body.credential_offer_uri ?? '') : '';
  const signIn = async (authorizationRequestUrl: string) => {
    const page = await (await fetch(authorizationRequestUrl, { redirect: 'manual' })).text();
    const session = /name="session" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const oneTimeCode = /code is: (\d{6})/.exec(await mailbox.find(email, /code is: \d{6}/))?.[1] ?? '';
    const done = await fetch(`${baseUrl}/oauth2/authorize/issuance`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ session, one_time_code: oneTimeCode }),
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    return done.headers.get('location') ?? '';
  };
  const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(offerUri, signIn, {
    dpop: true,
  });
  expect(received.tokenType).toBe('DPoP');
  const employee = { mandatee: { firstName: 'Ana' } };
  expect(received.claims).toMatchObject(namespace ? { [namespace]: employee } : employee);
  return received;
}
