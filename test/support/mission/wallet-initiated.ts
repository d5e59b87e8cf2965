import { expect } from 'vitest';
import { scimClient } from '../scim-client.js';
import { ThirdPartyWallet } from '../third-party-wallet.js';
import type { Mailbox } from './mailbox.js';

const CODE = /code is: (\d{6})/;

/**
 * Wallet-initiated issuance as a third-party wallet runs it (@openid4vc/oauth2 and openid4vci): a
 * SCIM user is provisioned; with no offer, the wallet pushes its request for the configuration's
 * scope; on the hosted page the holder gives their address, enters the code mailed to it, and the
 * wallet receives the user's credential. Its sign-ins and address counters live in the TTL store,
 * in memory on the embedded default: this is what runs them there.
 */
export async function issueWalletInitiated(
  baseUrl: string,
  issuerUrl: string,
  tenant: { id: string; scim_token: string },
  mailbox: Mailbox,
  email: string,
) {
  const scim = scimClient(baseUrl, tenant.id, tenant.scim_token);
  const created = await scim.post('/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: email,
    name: { givenName: 'Nerea', familyName: 'Arrieta' },
    emails: [{ value: email, primary: true }],
  });
  expect(created.status).toBe(201);
  // The tenant delivers by e-mail: provisioning mailed a tx_code in the same template first.
  const provisioned = await mailbox.find(email, CODE);
  const signIn = async (authorizationRequestUrl: string) => {
    const page = await (await fetch(authorizationRequestUrl)).text();
    const session = /name="session" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const form = (path: string, body: Record<string, string>) =>
      fetch(`${baseUrl}/oauth2/authorize/issuance${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ session, ...body }),
        redirect: 'manual',
      });
    expect((await form('/email', { email })).status).toBe(200);
    const oneTimeCode = CODE.exec(await mailbox.find(email, CODE, 15_000, [provisioned]))?.[1] ?? '';
    const done = await form('', { one_time_code: oneTimeCode });
    expect(done.status).toBe(303);
    return done.headers.get('location') ?? '';
  };
  const received = await new ThirdPartyWallet().receiveWalletInitiated(
    issuerUrl,
    'LEARCredentialEmployee',
    signIn,
    { dpop: true },
  );
  expect(received.claims).toMatchObject({ mandatee: { firstName: 'Nerea', lastName: 'Arrieta', email } });
}
