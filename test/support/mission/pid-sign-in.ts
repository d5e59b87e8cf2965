import { expect } from 'vitest';
import { type createClient, createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { authorizationCodeOffer } from '../authorization-code-offer.js';
import { DATED_EMPLOYEE, datedEmployeePayload, registerDatedEmployee } from '../dated-employee.js';
import { type Person, PID_VCT, startPidProvider } from '../pid-provider.js';
import { openPresentationSignIn } from '../presentation-sign-in-page.js';
import { ThirdPartyHolder } from '../third-party-holder.js';
import { ThirdPartyWallet } from '../third-party-wallet.js';

type Service = ReturnType<typeof createClient>;

/** The tenant's rule: the PID's names and birth date must be the offer's mandatee's. */
export const PID_RULE = {
  credential: { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] } },
  match: [
    { claim: ['family_name'], source: 'payload', field: 'mandatee.lastName', compare: 'name' },
    { claim: ['given_name'], source: 'payload', field: 'mandatee.firstName', compare: 'name' },
    { claim: ['birthdate'], source: 'payload', field: 'mandatee.birthDate', compare: 'date' },
  ],
} as const;

/**
 * Sign-in by presenting a PID, as an operator sets it up and a holder goes through it: the tenant
 * trusts a PID provider made here (its CA through the admin API) and asks for the PID at sign-in
 * (until the step ends: the rule changes how all its holders sign in); an integrator's authorization code
 * offer; a third-party wallet's PAR and authorization; the sign-in page's QR code answered by the
 * holder's PID (another device: no redirect), whose status the verifier reads from the provider's
 * list; the page completes in the same browser, and the wallet gets its credential.
 */
export async function pidSignIn(
  baseUrl: string,
  service: Service,
  tenant: { id: string; integrator_token: string },
) {
  const provider = await startPidProvider();
  try {
    await registerDatedEmployee(service);
    const anchor = await service.trustedIssuers.addTrustAnchor({
      params: { id: tenant.id },
      body: { certificate: provider.pki.root.pem },
    });
    expect([200, 201]).toContain(anchor.status);
    const rule = await service.admin.putHolderSignInPresentation({
      params: { id: tenant.id },
      body: PID_RULE as never,
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);

    const person: Person = { family_name: 'Ruiz', given_name: 'Ana', birth_date: '1990-05-17' };
    const email = `pid-${Date.now()}@acme.test`;
    const integrator = createIntegratorClient({ baseUrl, token: tenant.integrator_token });
    const offer = await authorizationCodeOffer(integrator, email, {
      configurationId: DATED_EMPLOYEE,
      payload: datedEmployeePayload(person, email),
    });

    const holder = await ThirdPartyHolder.create();
    // The PID spells the names as a PID provider may: in capitals.
    const pid = await provider.sdJwt(holder.holderJwk, { ...person, family_name: 'RUIZ', given_name: 'ANA' });
    const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
      offer.offerUri,
      async (authorizationRequestUrl) => {
        const page = await openPresentationSignIn(baseUrl, authorizationRequestUrl);
        const answer = await holder.present(page.qr, [pid]);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const done = await page.complete();
        expect(done.status).toBe(303);
        return done.headers.get('location') ?? '';
      },
      { dpop: true },
    );
    expect(received.claims).toMatchObject({ mandatee: { lastName: 'Ruiz', birthDate: '1990-05-17' } });
    const issuance = await integrator.getIssuance({ params: { id: offer.offerId } });
    expect(issuance.body).toMatchObject({ status: 'issued' });
  } finally {
    // The tenant's holders sign in by a mailed code again, for the steps that follow.
    await service.admin.deleteHolderSignInPresentation({ params: { id: tenant.id } });
    await provider.close();
  }
}
