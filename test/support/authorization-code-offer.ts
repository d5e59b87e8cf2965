import type { IntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from './fixtures.js';

/**
 * An offer with the authorization code grant (ui delivery to `email`), as the tests of HAIP's
 * authorization code flow start: the wallet pushes its request with the offer's issuer_state.
 */
export async function authorizationCodeOffer(
  integrator: IntegratorClient,
  email: string,
  options: { configurationId?: string; payload?: Record<string, unknown> } = {},
) {
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: options.configurationId ?? 'LEARCredentialEmployee',
      payload: options.payload ?? employeePayload(),
      delivery: 'ui',
      email,
      grant_type: 'authorization_code',
    },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  return { offerUri: res.body.credential_offer_uri, offerId: res.body.offer_id };
}
