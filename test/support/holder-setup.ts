import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
} from '../../clients/wallet/src/index.js';
import { employeePayload } from './fixtures.js';
import type { startSmtpCatcher } from './smtp-catcher.js';

export const walletHttp = { allowHttp: true };

/**
 * A holder wallet that has received an employee credential the way an employee does: the integrator
 * creates an offer, the tx_code comes by mail, the wallet redeems the offer over OID4VCI.
 */
export async function walletWithCredential(
  integrator: ReturnType<typeof createIntegratorClient>,
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>,
  email: string,
) {
  const payload = employeePayload();
  const res = await integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: { ...payload, mandatee: { ...payload.mandatee, email } },
      delivery: 'ui',
      email,
    },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  const mail = await smtp.waitForMail((m) => m.to.includes(email) && /activation code is/.test(m.raw));
  const txCode = /activation code is: (\d{6})/.exec(mail.raw)?.[1] ?? '';
  const wallet = new HolderWallet({
    crypto: inMemoryHolderCrypto(),
    store: inMemoryCredentialStore(),
    http: walletHttp,
  });
  const [stored] = await wallet.receive(res.body.credential_offer_uri, { txCode });
  if (!stored) throw new Error('nothing received');
  const issued = await integrator.getIssuance({ params: { id: res.body.offer_id } });
  const credentialId = issued.status === 200 ? issued.body.credentials[0]?.id : undefined;
  if (!credentialId) throw new Error('no credential id');
  return { wallet, stored, credentialId };
}
